// Flagging stuck operations at the edge of their age (since the last change, or since creation when the
// platform gave no date), and a manual refresh's answers when the read fails. A database of its own:
// flagging looks at every operation.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { getDb } from "@/lib/db";
import { applySnapshot } from "@/lib/operations/mirror/apply-snapshot";
import { refreshOperation } from "@/lib/operations/mirror/refresh";
import { flagStuckOperations } from "@/lib/operations/mirror/stuck";
import { PlatformError } from "@/lib/platform/errors";
import { isolateDatabase } from "../../support/database";
import { createStaff } from "../../support/mirror";
import { snapshot } from "../../support/operations";

let restore: () => Promise<void>;
beforeAll(async () => {
  restore = await isolateDatabase();
});
afterAll(async () => {
  await restore();
});

const NOW = new Date("2027-03-01T12:00:00.000Z");
const minutesBefore = (m: number, ms = 0) => new Date(NOW.getTime() - m * 60_000 - ms).toISOString();

async function mirror(status: string, dateAdded: string, dateUpdated: string | null) {
  const id = randomUUID();
  const op = snapshot({ id, status, dateAdded, dateUpdated: dateUpdated ?? dateAdded });
  await applySnapshot(
    dateUpdated === null ? { ...op, dateUpdated: null, dateUpdatedText: null } : op,
    "readBack",
  );
  return id;
}

const flagged = async (id: string) =>
  (await getDb().operation.findUniqueOrThrow({ where: { id } })).stuckFlaggedAt;

describe("flagStuckOperations", () => {
  it("flags open operations unchanged for longer than the limit, once; the limit itself is not yet stuck", async () => {
    const longer = await mirror("in_progress", minutesBefore(600), minutesBefore(60, 1));
    const exactly = await mirror("in_progress", minutesBefore(600), minutesBefore(60));
    const recent = await mirror("created", minutesBefore(600), minutesBefore(59));
    const final = await mirror("success", minutesBefore(600), minutesBefore(600));
    const undatedOld = await mirror("booking", minutesBefore(61), null);
    const undatedNew = await mirror("booking", minutesBefore(30), null);

    expect(await flagStuckOperations(60, NOW)).toBe(2);
    expect(await flagged(longer)).toEqual(NOW);
    expect(await flagged(undatedOld)).toEqual(NOW);
    for (const id of [exactly, recent, final, undatedNew]) expect(await flagged(id)).toBeNull();

    // flagged ones are not counted again; the flag keeps its first moment
    const later = new Date(NOW.getTime() + 3_600_000);
    expect(await flagStuckOperations(60, NOW)).toBe(0);
    // an hour later the three open ones left are stuck too; the final one never is
    expect(await flagStuckOperations(60, later)).toBe(3);
    expect(await flagged(longer)).toEqual(NOW);
    expect(await flagged(exactly)).toEqual(later);
    expect(await flagged(final)).toBeNull();
  });

  it("flags in batches, each its own transaction, yielding between them", async () => {
    const stuck = await Promise.all(
      [1, 2, 3, 4, 5].map(() => mirror("in_progress", minutesBefore(600), minutesBefore(300))),
    );
    let yields = 0;
    const yieldTo = async () => void yields++;
    expect(await flagStuckOperations(60, NOW, { batchSize: 2, yieldTo })).toBe(5);
    expect(yields).toBe(2); // after the two full batches; the third, of one, is the last
    for (const id of stuck) expect(await flagged(id)).toEqual(NOW);
  });

  it("does not wait for an operation a writer holds: the next scan flags it", async () => {
    const held = await mirror("created", minutesBefore(600), minutesBefore(300));
    const free = await mirror("created", minutesBefore(600), minutesBefore(300));
    const writer = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await writer.connect();
    try {
      await writer.query("BEGIN");
      await writer.query(`SELECT 1 FROM "Operation" WHERE id = $1 FOR UPDATE`, [held]);
      const timeout = new Promise<"waited">((resolve) => setTimeout(() => resolve("waited"), 5_000));
      expect(await Promise.race([flagStuckOperations(60, NOW), timeout])).toBe(1);
      expect(await flagged(free)).toEqual(NOW);
      expect(await flagged(held)).toBeNull();
      await writer.query("COMMIT");
      const later = new Date(NOW.getTime() + 60_000);
      expect(await flagStuckOperations(60, later)).toBe(1);
      expect(await flagged(held)).toEqual(later);
    } finally {
      await writer.end();
    }
  });
});

describe("refreshOperation when the read fails", () => {
  it("the platform's failure is answered with its kind and trace; anything else goes to the caller", async () => {
    const staff = await createStaff("support");
    const id = await mirror("in_progress", minutesBefore(600), minutesBefore(300));
    const refusing = {
      getOperation: async () => {
        throw new PlatformError({
          kind: "timeout",
          method: "GET",
          path: "/operation/operation/platform",
          description: "no answer in 10 s",
          traceID: "t-timeout",
        });
      },
    };
    expect(await refreshOperation(id, staff.id, refusing)).toEqual({
      ok: false,
      code: "platform_error",
      kind: "timeout",
      traceID: "t-timeout",
    });
    const broken = {
      getOperation: async () => {
        throw new TypeError("a bug");
      },
    };
    await expect(refreshOperation(id, staff.id, broken)).rejects.toThrow("a bug");
    const unknown = { getOperation: async () => ({ operation: null, traceID: "t-none" }) };
    expect(await refreshOperation(id, staff.id, unknown)).toEqual({
      ok: false,
      code: "not_found",
      missingFrom: "platform",
      traceID: "t-none",
    });
  });
});
