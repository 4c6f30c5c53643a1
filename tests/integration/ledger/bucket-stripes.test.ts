// The quarter-hour sums are split in stripes by the writing connection, so that concurrent writers in the
// same quarter hour do not wait for each other's commit (webhook processing runs many loops at once),
// while one transaction's postings in a quarter hour and kind add up in one row (a reconciliation page).
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { getDatabaseUrl } from "@/lib/env";
import { firstPostingAt } from "@/lib/ledger/balance";
import { isolateDatabase } from "../../support/database";
import { mirrorRow } from "../../support/mirror";

let restore: () => Promise<void>;
beforeAll(async () => {
  restore = await isolateDatabase();
});
afterAll(async () => {
  await restore();
});

type Connection = { client: pg.Client; stripe: number };

async function connect(): Promise<Connection> {
  const client = new pg.Client({ connectionString: getDatabaseUrl() });
  await client.connect();
  const { rows } = await client.query<{ stripe: number }>(`SELECT pg_backend_pid() & 15 AS stripe`);
  return { client, stripe: rows[0]!.stripe };
}

/** Two connections in different stripes (the ones opened on the way are closed). */
async function connectionsInDifferentStripes(): Promise<[Connection, Connection]> {
  const first = await connect();
  for (;;) {
    const second = await connect();
    if (second.stripe !== first.stripe) return [first, second];
    await second.client.end();
  }
}

const insertOperation = (client: pg.Client, row: ReturnType<typeof mirrorRow>) =>
  client.query(
    `INSERT INTO "Operation" (id, "dateAdded", "dateUpdated", "typeOperation", status, "idTransactionMerchant",
       "amountInitial", amount, currency, "amountInCurrencyBalance", "amountComissionInCurrencyBalance", raw,
       "lastSource", "snapshotReceivedAt")
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, '{}', 'reconciliation', now())`,
    [
      row.id,
      row.dateAdded,
      row.dateUpdated,
      row.typeOperation,
      row.status,
      row.idTransactionMerchant,
      row.amountInitial,
      row.amount,
      row.currency,
      row.amountInCurrencyBalance,
      row.amountComissionInCurrencyBalance,
    ],
  );

const at = new Date("2026-11-23T10:05:00.000Z");
const successfulPayIn = () =>
  mirrorRow({ dateAdded: at, dateUpdated: at, typeOperation: "payIn", status: "success" });

describe("LedgerBucket stripes", () => {
  it("a writer on another connection does not wait for the first one's commit in the same quarter hour", async () => {
    const [a, b] = await connectionsInDifferentStripes();
    try {
      await a.client.query("BEGIN");
      await insertOperation(a.client, successfulPayIn()); // holds its bucket rows locked until it ends
      await b.client.query(`SET lock_timeout = '3s'`);
      const outcome = await insertOperation(b.client, successfulPayIn()).then(
        () => "committed",
        (error: Error) => `failed: ${error.message}`,
      );
      await a.client.query("COMMIT");
      expect(outcome).toBe("committed");
    } finally {
      await a.client.end();
      await b.client.end();
    }
    const rows = await getDb().$queryRaw<{ kind: string; postings: number; stripes: number[] }[]>`
      SELECT kind::text, sum(postings)::int AS postings, array_agg(stripe::int ORDER BY stripe) AS stripes
      FROM "LedgerBucket" WHERE bucket = '2026-11-23T10:00:00Z' GROUP BY kind ORDER BY kind`;
    const stripes = [a.stripe, b.stripe].sort((x, y) => x - y);
    expect(rows).toEqual([
      { kind: "payInCommission", postings: 2, stripes },
      { kind: "payInCredit", postings: 2, stripes },
    ]);
  });

  it("one transaction's postings in a quarter hour and kind add up in one row of its connection's stripe", async () => {
    const connection = await connect();
    const base = new Date("2026-11-25T00:00:00.000Z").getTime();
    const rows = Array.from({ length: 60 }, (_, i) =>
      mirrorRow({
        dateAdded: new Date(base + (i % 3) * 900_000),
        dateUpdated: new Date(base + (i % 3) * 900_000 + 60_000),
        typeOperation: "payIn",
        status: "success",
        amountInCurrencyBalance: `${(i % 13) + 1}.25`,
      }),
    );
    try {
      await connection.client.query("BEGIN");
      for (const row of rows) await insertOperation(connection.client, row);
      await connection.client.query("COMMIT");
    } finally {
      await connection.client.end();
    }
    const buckets = await getDb().$queryRaw<
      { bucket: Date; kind: string; stripe: number; postings: number }[]
    >`
      SELECT bucket, kind::text, stripe::int, postings FROM "LedgerBucket"
      WHERE bucket >= '2026-11-25T00:00:00Z' AND bucket < '2026-11-26T00:00:00Z' ORDER BY bucket, kind`;
    expect(buckets).toHaveLength(6); // three quarter hours, two kinds
    for (const b of buckets) expect(b).toMatchObject({ stripe: connection.stripe, postings: 20 });
  });

  it("the stripes of every quarter hour and kind add up to its postings through inserts, moves and deletes", async () => {
    const db = getDb();
    const base = new Date("2026-11-24T00:00:00.000Z").getTime();
    const rows = Array.from({ length: 120 }, (_, i) =>
      mirrorRow({
        dateAdded: new Date(base + (i % 7) * 400_000),
        dateUpdated: new Date(base + (i % 7) * 400_000 + 60_000),
        typeOperation: i % 3 === 0 ? "payOut" : "payIn",
        status: i % 3 === 0 ? "in_progress" : "success",
        amountInCurrencyBalance: `${(i % 13) + 1}.25`,
      }),
    );
    await db.operation.createMany({ data: rows });
    const payOuts = rows.filter((r) => r.typeOperation === "payOut").map((r) => r.id);
    // Pay-outs settle half an hour later (hold released, debit posted in another quarter hour), one fails,
    // and some operations are removed (their postings go with them).
    await db.operation.updateMany({
      where: { id: { in: payOuts.slice(1) } },
      data: { status: "success", dateUpdated: new Date(base + 1_800_000) },
    });
    await db.operation.update({ where: { id: payOuts[0]! }, data: { status: "failed" } });
    await db.operation.deleteMany({ where: { id: { in: rows.slice(100).map((r) => r.id) } } });

    const differences = await db.$queryRaw<unknown[]>`
      WITH from_postings AS (
        SELECT ledger_bucket_of(at) AS bucket, kind, sum(amount) AS amount, sum("holdDelta") AS hold,
          count(*)::int AS n FROM "LedgerPosting" GROUP BY 1, 2
      ), from_buckets AS (
        SELECT bucket, kind, sum(amount) AS amount, sum("holdDelta") AS hold, sum(postings)::int AS n
        FROM "LedgerBucket" GROUP BY 1, 2 HAVING sum(postings) <> 0 OR sum(amount) <> 0 OR sum("holdDelta") <> 0
      )
      SELECT * FROM from_postings p FULL JOIN from_buckets b USING (bucket, kind)
      WHERE (p.amount, p.hold, p.n) IS DISTINCT FROM (b.amount, b.hold, b.n)`;
    expect(differences).toEqual([]);
  });

  it("the first posting is the earliest quarter hour whose stripes still hold postings", async () => {
    const db = getDb();
    const early = mirrorRow({
      dateAdded: new Date("2026-01-01T00:00:00.000Z"),
      typeOperation: "payIn",
      status: "success",
    });
    await db.operation.create({ data: early });
    expect((await firstPostingAt())?.toISOString()).toBe("2026-01-01T00:00:00.000Z");
    await db.operation.delete({ where: { id: early.id } });
    // The quarter hour's row stays with zero postings; it no longer counts.
    expect((await firstPostingAt())?.toISOString()).toBe("2026-11-23T10:00:00.000Z");
  });
});
