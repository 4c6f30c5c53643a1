import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { isolateDatabase } from "../../support/database";

let restore: () => Promise<void>;
beforeAll(async () => {
  restore = await isolateDatabase();
});
afterAll(async () => {
  await restore();
});

describe("ledger_bucket_of, the quarter hour a posting counts in", () => {
  it("gives the epoch-aligned quarter hour at and around every boundary", async () => {
    const rows = await getDb().$queryRaw<{ t: Date; bucket: Date }[]>`
      SELECT t, ledger_bucket_of(t) AS bucket FROM unnest(ARRAY[
        '2026-11-23 00:00:00+00', '2026-11-23 00:14:59.999+00', '2026-11-23 00:15:00+00',
        '2026-11-23 03:44:59.999+03', '2026-11-22 23:59:59.999999+00', '2031-03-01 05:29:30+05:30',
        '1970-01-01 00:00:00+00', '2026-03-29 01:07:00+00'
      ]::timestamptz[]) AS t`;
    const expected = (t: Date) => new Date(Math.floor(t.getTime() / 900_000) * 900_000);
    expect(rows).toHaveLength(8);
    for (const { t, bucket } of rows)
      expect(bucket.toISOString(), t.toISOString()).toBe(expected(t).toISOString());
  });

  it("agrees with the epoch arithmetic it replaced over a day of random instants", async () => {
    const [row] = await getDb().$queryRaw<{ differing: bigint }[]>`
      SELECT count(*) AS differing FROM (
        SELECT TIMESTAMPTZ '2026-11-23 00:00:00+00' + random() * INTERVAL '400 days' AS t
        FROM generate_series(1, 20000)) s
      WHERE ledger_bucket_of(t) <> to_timestamp(floor(extract(epoch FROM t) / 900) * 900)`;
    expect(row?.differing).toBe(0n);
  });

  // Declared IMMUTABLE over a STABLE body, a SQL function is never inlined: the bucket triggers then ran it
  // as a separate function call per posting, about 40% of a reconciliation page's write time.
  it("is inlined into the queries that call it", async () => {
    const plan = await getDb().$queryRawUnsafe<{ "QUERY PLAN": string }[]>(
      `EXPLAIN (VERBOSE, COSTS OFF) SELECT ledger_bucket_of(at) FROM "LedgerPosting"`,
    );
    const text = plan.map((r) => r["QUERY PLAN"]).join("\n");
    expect(text).toContain("date_bin");
    expect(text).not.toContain("ledger_bucket_of");
  });
});
