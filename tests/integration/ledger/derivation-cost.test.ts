// Deriving the postings of a page of operations must cost the same whatever the ledger's size. Its
// search for postings the rules no longer make (a failed pay-out's hold replaced by its release...) read
// the whole LedgerPosting table on every page of a first reconciliation: planned from statistics taken
// while the ledger was small, `"operationId" = ANY(1,000 ids)` looked like most of the table (issue 16,
// reconciliation: 235,000 postings read per page at the end of a 100,000-operation load). Operations the
// caller inserted in its transaction are not looked up in the ledger at all (migration
// 20261125002333_ledger_derivation_of_new_operations).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { isolateDatabase } from "../../support/database";

const PAGE = 1_000;

/** Successful pay-ins (two postings each), their postings derived by the ledger's trigger. */
async function addOperations(count: number): Promise<string[]> {
  const rows = await getDb().$queryRaw<{ id: string }[]>`
    INSERT INTO "Operation" (id, "dateAdded", "dateUpdated", "typeOperation", status, "idTransactionMerchant",
      "amountInitial", amount, currency, "amountInCurrencyBalance", "amountComissionInCurrencyBalance", raw,
      "lastSource")
    SELECT gen_random_uuid(), t, t, 'payIn', 'success', 'cost-' || n, 100, 100, 'RUB', 1.05, 0.0157, '{}',
      'reconciliation'
    FROM generate_series(1, ${count}) AS n, LATERAL (SELECT now() - n * interval '1 minute' AS t) AS at
    RETURNING id::text`;
  return rows.map((r) => r.id);
}

type Reads = { seqRead: number; indexFetched: number };

/**
 * Derives the postings of `ids` again in a transaction that is rolled back, with the LedgerPosting rows
 * it read: the table's counters for the current transaction (pg_stat_xact_user_tables).
 * `singlesFirst` are derived one by one before, in the same transaction.
 */
async function deriveAgain(ids: string[], singlesFirst: string[] = []): Promise<Reads> {
  let reads: Reads | undefined;
  await getDb()
    .$transaction(async (tx) => {
      // One operation at a time first, as webhooks derive them: the connection's plan is then made.
      for (const id of singlesFirst) await tx.$executeRaw`SELECT ledger_derive_postings(ARRAY[${id}::uuid])`;
      // The postings of half the page go: the rules must put them back, and remove none.
      await tx.$executeRaw`DELETE FROM "LedgerPosting" WHERE "operationId" = ANY(${ids.slice(0, PAGE / 2)}::uuid[])`;
      const before = await tableReads(tx);
      await tx.$executeRaw`SELECT ledger_derive_postings(${ids}::uuid[])`;
      const after = await tableReads(tx);
      const [{ count }] = await tx.$queryRaw<[{ count: bigint }]>`
        SELECT count(*) FROM "LedgerPosting" WHERE "operationId" = ANY(${ids}::uuid[])`;
      expect(Number(count)).toBe(2 * PAGE);
      reads = {
        seqRead: after.seqRead - before.seqRead,
        indexFetched: after.indexFetched - before.indexFetched,
      };
      throw new Error("rollback");
    })
    .catch((error: unknown) => {
      if ((error as Error).message !== "rollback") throw error;
    });
  return reads!;
}

async function tableReads(tx: Parameters<Parameters<ReturnType<typeof getDb>["$transaction"]>[0]>[0]) {
  const [row] = await tx.$queryRaw<[{ seq: bigint | null; idx: bigint | null }]>`
    SELECT seq_tup_read AS seq, idx_tup_fetch AS idx FROM pg_stat_xact_user_tables
    WHERE relname = 'LedgerPosting'`;
  return { seqRead: Number(row.seq ?? 0), indexFetched: Number(row.idx ?? 0) };
}

let restore: () => Promise<void>;
beforeAll(async () => {
  restore = await isolateDatabase();
}, 60_000);
afterAll(() => restore());

describe("deriving the postings of a page of operations", () => {
  beforeAll(async () => {
    // Statistics stay as each case sets them.
    await getDb().$executeRaw`ALTER TABLE "LedgerPosting" SET (autovacuum_enabled = false)`;
  });

  it("reads the page's postings only while the ledger has no statistics yet (a first load)", async () => {
    // Seen in the reconciliation bench: 100,000 operations load in 14 s, before autovacuum's first look.
    await getDb()
      .$executeRaw`SELECT pg_clear_attribute_stats('public', 'LedgerPosting', 'operationId', false)`;
    const page = (await addOperations(20_000)).slice(-PAGE);
    const reads = await deriveAgain(page);
    expect(reads.seqRead).toBe(0);
    // each of the page's operations looked up once or twice, not the 40,000 postings
    expect(reads.indexFetched).toBeLessThanOrEqual(4 * PAGE);
  }, 120_000);

  it("reads the page's postings only with statistics taken while the ledger was small", async () => {
    await getDb().$executeRaw`TRUNCATE "Operation" CASCADE`;
    await addOperations(2_000);
    await getDb().$executeRaw`ANALYZE "LedgerPosting"`;
    const page = (await addOperations(20_000)).slice(-PAGE);
    const reads = await deriveAgain(page);
    expect(reads.seqRead).toBe(0);
    expect(reads.indexFetched).toBeLessThanOrEqual(4 * PAGE);
  }, 120_000);

  it("reads a page by index with the plan made for single operations (one generic plan per connection)", async () => {
    await getDb().$executeRaw`TRUNCATE "Operation" CASCADE`;
    const ids = await addOperations(20_000);
    const page = ids.slice(-PAGE);
    const reads = await deriveAgain(page, ids.slice(0, 8));
    expect(reads.seqRead).toBe(0);
    expect(reads.indexFetched).toBeLessThanOrEqual(4 * PAGE + 16);
  }, 120_000);

  it("keeps its settings: planned once per connection, rows reached by index", async () => {
    // Planning the statement cost twice what running it costs for one operation (the webhooks' case);
    // a CREATE OR REPLACE that forgot these would silently bring that back.
    const [{ config }] = await getDb().$queryRaw<[{ config: string[] }]>`
      SELECT proconfig AS config FROM pg_proc WHERE proname = 'ledger_derive_postings'`;
    expect(config).toEqual(
      expect.arrayContaining(["enable_seqscan=off", "plan_cache_mode=force_generic_plan"]),
    );
  });
});

describe("deriving operations the caller inserted (new_ids)", () => {
  /**
   * Inserts pay-ins with the triggers deferred, then derives them, as new ids or as ids that may have
   * postings; returns the ledger's index scans.
   */
  async function insertAndDerive(count: number, asNew: boolean): Promise<number> {
    return getDb().$transaction(async (tx) => {
      await tx.$executeRaw`SET LOCAL paydesk.ledger_derivation = 'deferred'`;
      const ids = (
        await tx.$queryRaw<{ id: string }[]>`
          INSERT INTO "Operation" (id, "dateAdded", "dateUpdated", "typeOperation", status,
            "idTransactionMerchant", "amountInitial", amount, currency, "amountInCurrencyBalance",
            "amountComissionInCurrencyBalance", raw, "lastSource")
          SELECT gen_random_uuid(), now(), now(), 'payIn', 'success', 'new-' || gen_random_uuid(), 100, 100,
            'RUB', 1.05, 0.0157, '{}', 'reconciliation'
          FROM generate_series(1, ${count})
          RETURNING id::text`
      ).map((r) => r.id);
      const scans = async () =>
        Number(
          (
            await tx.$queryRaw<[{ scans: bigint | null }]>`
              SELECT idx_scan AS scans FROM pg_stat_xact_user_tables WHERE relname = 'LedgerPosting'`
          )[0].scans ?? 0,
        );
      const before = await scans();
      if (asNew) await tx.$executeRaw`SELECT ledger_derive_postings('{}', ${ids}::uuid[])`;
      else await tx.$executeRaw`SELECT ledger_derive_postings(${ids}::uuid[])`;
      const after = await scans();
      const [{ postings }] = await tx.$queryRaw<[{ postings: bigint }]>`
        SELECT count(*) AS postings FROM "LedgerPosting" WHERE "operationId" = ANY(${ids}::uuid[])`;
      expect(Number(postings)).toBe(2 * count);
      return after - before;
    });
  }

  it("derives them without reading the ledger; as ids that may have postings, it reads it", async () => {
    expect(await insertAndDerive(PAGE, true)).toBe(0);
    expect(await insertAndDerive(PAGE, false)).toBeGreaterThan(0);
  }, 60_000);

  it("refuses one that has postings after all: the transaction fails on the primary key and the ledger is unchanged", async () => {
    const [id] = await addOperations(1);
    const ledger = () =>
      getDb().ledgerPosting.findMany({ where: { operationId: id }, orderBy: { kind: "asc" } });
    const before = await ledger();
    expect(before).toHaveLength(2);
    await expect(
      getDb().$executeRaw`SELECT ledger_derive_postings('{}', ARRAY[${id}::uuid])`,
    ).rejects.toThrow(/LedgerPosting_pkey|duplicate key/);
    expect(await ledger()).toEqual(before);
  });
});
