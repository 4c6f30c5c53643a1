// The ledger's triggers derive postings only for operations a statement can move (migration
// 20261123231237_ledger_triggers_skip_empty): counted with PostgreSQL's own per-transaction function
// statistics, inside one transaction that is rolled back.
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

const CALLS = `SELECT pg_stat_get_xact_function_calls('ledger_derive_postings(uuid[])'::regprocedure) AS calls`;

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

describe("ledger triggers", () => {
  it("derive nothing for a status change that is not final, or an update that moves no posting", async () => {
    expect(await derivations(change("pending_retry", "2026-11-20T10:05:00Z"))).toBe(0);
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
