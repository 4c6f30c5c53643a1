// The ledger's triggers derive postings only for operations a statement can move (migrations
// 20261123231237_ledger_triggers_skip_empty, 20261124200500_ledger_skip_open_status_moves): counted with
// PostgreSQL's own per-transaction function statistics, inside one transaction that is rolled back. What
// they skip must change no posting: after any sequence of updates the postings are a fresh derivation's.
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import { isolateDatabase } from "../../support/database";
import { insertOperations, mirrorRow } from "../../support/mirror";

let restore: () => Promise<void>;
let payOut: string;
beforeAll(async () => {
  restore = await isolateDatabase();
  const [id] = await insertOperations([
    { dateAdded: new Date("2026-11-20T10:00:00Z"), typeOperation: "payOut", status: "in_progress" },
  ]);
  payOut = id!;
});
afterAll(() => restore());

class RolledBack extends Error {}

const CALLS = `SELECT pg_stat_get_xact_function_calls('ledger_derive_postings(uuid[], uuid[])'::regprocedure) AS calls`;

/**
 * How many times ledger_derive_postings ran for the statement, which is then undone. The count is the
 * backend's, not yet reported, so it may include earlier transactions of the same connection: the
 * difference across the statement is what it caused (nothing is reported while a transaction is open).
 */
async function derivations(statement: (tx: Prisma.TransactionClient) => Promise<unknown>): Promise<number> {
  let calls = -1;
  await getDb()
    .$transaction(async (tx) => {
      await tx.$executeRawUnsafe(`SET LOCAL track_functions = 'all'`);
      const count = async () =>
        Number((await tx.$queryRawUnsafe<{ calls: bigint | null }[]>(CALLS))[0]?.calls ?? 0);
      const before = await count();
      await statement(tx);
      calls = (await count()) - before;
      throw new RolledBack();
    })
    .catch((error: unknown) => {
      if (!(error instanceof RolledBack)) throw error;
    });
  return calls;
}

const change = (toStatus: string, at: string) => (tx: Prisma.TransactionClient) =>
  tx.$executeRawUnsafe(
    `INSERT INTO "OperationStatusChange" ("operationId", "fromStatus", "toStatus", source, "platformDateUpdated")
     VALUES ($1::uuid, 'in_progress', $2::"OperationStatus", 'webhook', $3::timestamptz)`,
    payOut,
    toStatus,
    at,
  );

const update = (set: string) => (tx: Prisma.TransactionClient) =>
  tx.$executeRawUnsafe(`UPDATE "Operation" SET ${set} WHERE id = $1::uuid`, payOut);

describe("ledger triggers", () => {
  it("derive nothing for a status change that is not final, or an update that moves no posting", async () => {
    expect(await derivations(change("pending_retry", "2026-11-20T10:05:00Z"))).toBe(0);
    // A webhook's usual news: the operation moves on between statuses that are not final.
    expect(
      await derivations(update(`status = 'pending_retry', "dateUpdated" = '2026-11-20T10:05:00Z'`)),
    ).toBe(0);
    expect(
      await derivations((tx) =>
        tx.$executeRawUnsafe(
          `UPDATE "Operation" SET "detailsBankName" = 'Tinkoff' WHERE id = $1::uuid`,
          payOut,
        ),
      ),
    ).toBe(0);
    expect(
      await derivations((tx) =>
        tx.$executeRawUnsafe(
          `INSERT INTO "Operation" SELECT * FROM "Operation" WHERE id = $1::uuid ON CONFLICT DO NOTHING`,
          payOut,
        ),
      ),
    ).toBe(0);
  });

  it("derive once for a final status change, an update of what postings are made of, and a new operation", async () => {
    expect(await derivations(change("success", "2026-11-20T10:05:00Z"))).toBe(1);
    expect(await derivations(update(`status = 'success'`))).toBe(1);
    expect(await derivations(update(`"dateAdded" = '2026-11-20T09:00:00Z'`))).toBe(1);
    expect(
      await derivations((tx) =>
        tx.$executeRawUnsafe(
          `UPDATE "Operation" SET "amountInCurrencyBalance" = 2 WHERE id = $1::uuid`,
          payOut,
        ),
      ),
    ).toBe(1);
    const newOperation = mirrorRow({ dateAdded: new Date("2026-11-21T10:00:00Z"), status: "success" });
    expect(await derivations((tx) => tx.operation.createMany({ data: [newOperation] }))).toBe(1);
  });
});

const STATUSES = ["created", "in_progress", "pending_retry", "success", "failed"] as const;
const T0 = Date.parse("2030-02-01T00:00:00Z");
const MINUTE = 60_000;
const stepArb = fc.record({
  operation: fc.nat({ max: 2 }),
  status: fc.option(fc.constantFrom(...STATUSES)),
  dateUpdated: fc.option(fc.integer({ min: 0, max: 600 })),
  dateAdded: fc.option(fc.integer({ min: -60, max: 0 })),
  base: fc.option(fc.constantFrom("0", "1.05", "250.5", "-3")),
  commission: fc.option(fc.constantFrom("0", "0.0157", "2")),
  typeOperation: fc.option(fc.constantFrom("payIn", "payOut")),
  // The history row a status change comes with, at its own moment (or none).
  history: fc.option(fc.integer({ min: 0, max: 600 })),
});
type Step = typeof stepArb extends fc.Arbitrary<infer T> ? T : never;

async function applyStep(ids: string[], step: Step): Promise<void> {
  const db = getDb();
  const at = (minutes: number) => new Date(T0 + minutes * MINUTE).toISOString();
  const set: string[] = [];
  if (step.status !== null) set.push(`status = '${step.status}'`);
  if (step.dateUpdated !== null) set.push(`"dateUpdated" = '${at(step.dateUpdated)}'`);
  if (step.dateAdded !== null) set.push(`"dateAdded" = '${at(step.dateAdded)}'`);
  if (step.base !== null) set.push(`"amountInCurrencyBalance" = ${step.base}`);
  if (step.commission !== null) set.push(`"amountComissionInCurrencyBalance" = ${step.commission}`);
  if (step.typeOperation !== null) set.push(`"typeOperation" = '${step.typeOperation}'`);
  const id = ids[step.operation]!;
  if (set.length > 0)
    await db.$executeRawUnsafe(`UPDATE "Operation" SET ${set.join(", ")} WHERE id = $1::uuid`, id);
  if (step.status !== null && step.history !== null) {
    await db.$executeRawUnsafe(
      `INSERT INTO "OperationStatusChange" ("operationId", "toStatus", source, "platformDateUpdated")
       VALUES ($1::uuid, $2::"OperationStatus", 'webhook', $3::timestamptz)`,
      id,
      step.status,
      at(step.history),
    );
  }
}

const POSTINGS = `SELECT "operationId"::text || ' ' || kind || ' ' || at::text || ' ' || amount::text || ' ' ||
  "holdDelta"::text AS p FROM "LedgerPosting" WHERE "operationId" = ANY($1::uuid[]) ORDER BY 1`;
const BUCKETS = `SELECT kind::text, sum(amount)::text AS amount, sum("holdDelta")::text AS hold
  FROM "LedgerBucket" GROUP BY kind ORDER BY kind`;

describe("ledger triggers, any sequence of updates", () => {
  it("leave the postings and the quarter-hour sums a fresh derivation makes", async () => {
    const db = getDb();
    await fc.assert(
      fc.asyncProperty(fc.array(stepArb, { minLength: 1, maxLength: 12 }), async (steps) => {
        const ids = await insertOperations(
          [0, 1, 2].map((i) => ({
            dateAdded: new Date(T0 - i * MINUTE),
            typeOperation: i === 0 ? ("payIn" as const) : ("payOut" as const),
            status: "created" as const,
          })),
        );
        for (const step of steps) await applyStep(ids, step);
        const read = async () => ({
          postings: (await db.$queryRawUnsafe<{ p: string }[]>(POSTINGS, ids)).map((r) => r.p),
          buckets: await db.$queryRawUnsafe<unknown[]>(BUCKETS),
        });
        const kept = await read();
        await db.$executeRawUnsafe(`SELECT ledger_derive_postings($1::uuid[])`, ids);
        expect(kept).toEqual(await read());
        await db.operation.deleteMany({ where: { id: { in: ids } } });
      }),
      { numRuns: 60 },
    );
  }, 120_000);
});
