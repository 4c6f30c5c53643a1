// isWriteConflict against the errors PostgreSQL, pg and Prisma really produce (lib/errors/write-conflict.ts).
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { getDatabaseUrl } from "@/lib/env";
import { isWriteConflict } from "@/lib/errors/write-conflict";
import { isolateDatabase } from "../../support/database";

// A database of its own: the probe table must not show up in the shared one's schema checks.
let restore: () => Promise<void>;
let db: ReturnType<typeof getDb>;
const pause = () => new Promise((resolve) => setTimeout(resolve, 300));

beforeAll(async () => {
  restore = await isolateDatabase();
  db = getDb();
  await db.$executeRawUnsafe(`CREATE TABLE write_conflict_probe (id int PRIMARY KEY, v int NOT NULL)`);
  await db.$executeRawUnsafe(`INSERT INTO write_conflict_probe VALUES (1, 0), (2, 0)`);
});
afterAll(() => restore());

/** Two transactions that each lock one row and then want the other's: PostgreSQL ends one of them. */
async function deadlock<T>(transaction: (first: number, second: number) => Promise<T>): Promise<unknown> {
  const outcomes = await Promise.allSettled([transaction(1, 2), transaction(2, 1)]);
  const failed = outcomes.filter((o) => o.status === "rejected");
  expect(failed).toHaveLength(1);
  return (failed[0] as PromiseRejectedResult).reason;
}

const bump = (id: number) => `UPDATE write_conflict_probe SET v = v + 1 WHERE id = ${id}`;

describe("isWriteConflict", () => {
  it("recognises a deadlock in a Prisma transaction", async () => {
    const error = await deadlock((first, second) =>
      db.$transaction(async (tx) => {
        await tx.$executeRawUnsafe(bump(first));
        await pause();
        await tx.$executeRawUnsafe(bump(second));
      }),
    );
    expect(isWriteConflict(error)).toBe(true);
  });

  it("recognises a deadlock on a plain pg connection", async () => {
    const error = await deadlock(async (first, second) => {
      const client = new pg.Client({ connectionString: getDatabaseUrl() });
      await client.connect();
      try {
        await client.query("BEGIN");
        await client.query(bump(first));
        await pause();
        await client.query(bump(second));
        await client.query("COMMIT");
      } finally {
        await client.end();
      }
    });
    expect(isWriteConflict(error)).toBe(true);
  });

  it("does not take other failures for one: a broken constraint, a syntax error, nothing at all", async () => {
    const duplicate = await db
      .$executeRawUnsafe(`INSERT INTO write_conflict_probe VALUES (1, 0)`)
      .catch((e) => e);
    const syntax = await db.$executeRawUnsafe(`SELEC 1`).catch((e) => e);
    expect(isWriteConflict(duplicate)).toBe(false);
    expect(isWriteConflict(syntax)).toBe(false);
    expect(isWriteConflict(new Error("deadlock detected"))).toBe(false);
    expect(isWriteConflict(null)).toBe(false);
    expect(isWriteConflict("40P01")).toBe(false);
  });
});
