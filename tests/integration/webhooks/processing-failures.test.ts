// A delivery whose outcome cannot even be recorded (here a trigger refuses every write to it but the
// claim; in production, a database gone away) ends the pass with the error, as before, but gives back
// the leases of the deliveries claimed with it: they are processed on the next pass, not a minute later.
// One claimed past the limit that never finished (each process handling it died) is not tried again.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import type { PlatformClient } from "@/lib/platform/client";
import type { Operation } from "@/lib/platform/schemas";
import {
  ABANDON_AFTER_CLAIMS,
  MAX_PROCESSING_ATTEMPTS,
  processPendingWebhooks,
} from "@/lib/webhooks/process";
import { isolateDatabase } from "../../support/database";
import { snapshot } from "../../support/operations";
import { deliverOperation } from "../../support/webhooks";

let restoreDatabase: () => Promise<void>;
beforeAll(async () => {
  restoreDatabase = await isolateDatabase();
});
afterAll(async () => {
  await getDb().$executeRawUnsafe(`DROP TRIGGER IF EXISTS refuse_one ON "WebhookDelivery"`);
  await restoreDatabase();
});

function reading(truth: Map<string, Operation>): Pick<PlatformClient, "getOperation"> {
  return {
    async getOperation(id: string) {
      const operation = truth.get(id);
      if (!operation) throw new Error("connection reset");
      return { operation, traceID: `readback-${id}` };
    },
  };
}

describe("a delivery whose outcome cannot be recorded", () => {
  it("gives back the leases of the deliveries behind it in its batch", async () => {
    const db = getDb();
    const ops = [1, 2, 3].map(() => snapshot({ id: randomUUID(), status: "success" }));
    for (const op of ops) await deliverOperation(op);
    const [first, ...others] = await db.webhookDelivery.findMany({ orderBy: { id: "asc" } });
    await db.$executeRawUnsafe(`
      CREATE OR REPLACE FUNCTION refuse_one() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'refused for the test'; END $$`);
    await db.$executeRawUnsafe(`
      CREATE TRIGGER refuse_one BEFORE UPDATE ON "WebhookDelivery" FOR EACH ROW
      WHEN (OLD.id = ${first!.id} AND NEW."processingAttempts" = OLD."processingAttempts")
      EXECUTE FUNCTION refuse_one()`);
    // the first one's read-back fails, and its retry cannot be recorded
    const truth = new Map(ops.slice(1).map((op) => [op.id, op]));
    await expect(processPendingWebhooks(reading(truth))).rejects.toThrow(/refused for the test/);
    for (const row of await db.webhookDelivery.findMany({ where: { id: { in: others.map((o) => o.id) } } })) {
      expect(row).toMatchObject({ outcome: "received", claimedUntil: null, processingAttempts: 0 });
    }
    const held = await db.webhookDelivery.findUniqueOrThrow({ where: { id: first!.id } });
    expect(held.claimedUntil!.getTime()).toBeGreaterThan(Date.now());

    await db.$executeRawUnsafe(`DROP TRIGGER refuse_one ON "WebhookDelivery"`);
    expect(await processPendingWebhooks(reading(truth))).toBe(2);
    const outcomes = await db.webhookDelivery.findMany({ orderBy: { id: "asc" }, select: { outcome: true } });
    expect(outcomes.map((o) => o.outcome)).toEqual(["received", "applied", "applied"]);
  });
});

describe("a worker that is stopping", () => {
  it("finishes the delivery it is deciding and gives back the rest of its batch", async () => {
    const db = getDb();
    await db.webhookDelivery.deleteMany();
    const ops = [1, 2, 3].map(() => snapshot({ id: randomUUID(), status: "success" }));
    for (const op of ops) await deliverOperation(op);
    let running = true;
    const truth = new Map(ops.map((op) => [op.id, op]));
    const platform = {
      async getOperation(id: string) {
        running = false; // SIGTERM arrives during the first read-back
        return reading(truth).getOperation(id);
      },
    };
    expect(await processPendingWebhooks(platform, 100, () => running)).toBe(1);
    const rows = await db.webhookDelivery.findMany({ orderBy: { id: "asc" } });
    expect(rows.map((r) => r.outcome)).toEqual(["applied", "received", "received"]);
    for (const row of rows.slice(1)) expect(row).toMatchObject({ claimedUntil: null, processingAttempts: 0 });
  });
});

describe("a delivery whose processing never finishes", () => {
  /** The only waiting delivery, of a final operation, already claimed `attempts` times. */
  async function claimedBefore(attempts: number) {
    const db = getDb();
    await db.webhookDelivery.deleteMany();
    const op = snapshot({ id: randomUUID(), status: "success" });
    await deliverOperation(op);
    const row = await db.webhookDelivery.findFirstOrThrow();
    await db.webhookDelivery.update({ where: { id: row.id }, data: { processingAttempts: attempts } });
    return { op, row };
  }

  it("is settled as failed once claimed past the limit, without being decided again", async () => {
    const db = getDb();
    // every earlier attempt was claimed and never recorded anything: its process died on it
    const { op, row } = await claimedBefore(ABANDON_AFTER_CLAIMS);
    let reads = 0;
    const platform = {
      async getOperation() {
        reads++;
        return { operation: op, traceID: "readback" };
      },
    };
    expect(await processPendingWebhooks(platform)).toBe(1);
    expect(reads).toBe(0);
    const settled = await db.webhookDelivery.findUniqueOrThrow({ where: { id: row.id } });
    expect(settled).toMatchObject({
      outcome: "failed",
      outcomeCode: "processingUnfinished",
      outcomeArgs: { attempts: ABANDON_AFTER_CLAIMS },
    });
    expect(await db.operation.count({ where: { id: op.id } })).toBe(0);
  });

  // its lease ran out past the limit while its loop waited on slow read-backs of the rows ahead: no crash
  it("is still decided when claimed again past the attempts' limit", async () => {
    const db = getDb();
    const { op, row } = await claimedBefore(MAX_PROCESSING_ATTEMPTS + 1);
    expect(await processPendingWebhooks(reading(new Map([[op.id, op]])))).toBe(1);
    const settled = await db.webhookDelivery.findUniqueOrThrow({ where: { id: row.id } });
    expect(settled.outcome).toBe("applied");
  });
});
