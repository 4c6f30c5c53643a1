import pg from "pg";

/**
 * Fills an empty, migrated database with a large mirror in a few set-based statements: operations with a
 * realistic mix (70% pay-ins; 85% success, 10% failed, the rest in progress; amounts with 0, 2 or 4
 * decimals; 90 days of history) and one API call per operation carrying a traceID. Deterministic
 * (`setseed`), so two runs measure the same data.
 */

export const BENCH_CURRENCY = "RUB";
export const BENCH_BALANCE_CURRENCY = "USDT";

export type FillResult = { operations: number; apiCalls: number; operationsMs: number; apiCallsMs: number };

// Random draws are made once per row in a materialised CTE so that type, method and details agree.
const INSERT_OPERATIONS = `
WITH s AS MATERIALIZED (
  SELECT i, random() AS r_type, random() AS r_status, random() AS r_method, random() AS r_amount,
    random() AS r_scale, random() AS r_date, random() AS r_update, random() AS r_number
  FROM generate_series(1, $1::int) AS i
), v AS (
  SELECT s.*,
    CASE WHEN r_type < 0.7 THEN 'payIn' ELSE 'payOut' END AS type,
    CASE WHEN r_status < 0.85 THEN 'success'
         WHEN r_status < 0.95 THEN 'failed'
         ELSE (ARRAY['precreated','created','booking','pending_retry','in_progress'])[1 + floor((r_status - 0.95) * 100)::int]
    END AS st,
    round((1 + r_amount * 149999)::numeric, (ARRAY[0, 2, 4])[1 + floor(r_scale * 3)::int]) AS amt,
    date_trunc('milliseconds', $2::timestamptz - r_date * interval '90 days') AS added
  FROM s
)
INSERT INTO "Operation" (
  id, "dateAdded", "dateUpdated", "typeOperation", status, "idTransactionMerchant", "amountInitial", amount,
  "amountComission", currency, "amountInCurrencyBalance", "amountComissionInCurrencyBalance", "exchangeRate",
  "paymentMethod", "detailsBankName", "detailsNumber", raw, "lastSource", "firstSeenAt", "mirroredAt"
)
SELECT
  gen_random_uuid(), added,
  added + r_update * interval '3 hours',
  type::"OperationType", st::"OperationStatus",
  'bench-' || to_char(i, 'FM00000000'),
  amt, amt,
  round(amt * 0.025, 4),
  '${BENCH_CURRENCY}',
  CASE WHEN st = 'success' THEN round(amt / 92.5, 4) END,
  CASE WHEN st = 'success' THEN round(amt * 0.025 / 92.5, 4) END,
  CASE WHEN st = 'success' THEN 92.5 END,
  CASE WHEN type = 'payIn'
    THEN (ARRAY['toCard','sbp','mono-bank'])[1 + floor(r_method * 3)::int]
    ELSE (ARRAY['toCard','sbp','toAccount'])[1 + floor(r_method * 3)::int]
  END,
  CASE WHEN type = 'payIn' THEN (ARRAY['Sberbank','T-Bank','Alfa-Bank','VTB'])[1 + floor(r_number * 4)::int] END,
  CASE WHEN type = 'payIn' THEN '2200' || lpad(floor(r_number * 1e12)::bigint::text, 12, '0') END,
  '{}'::jsonb, 'reconciliation'::"SnapshotSource", added, added + r_update * interval '3 hours'
FROM v`;

// One creation (or read) call per operation: a traceID that the search box can find.
const INSERT_API_CALLS = `
INSERT INTO "ApiCall" (
  "startedAt", method, path, "httpStatus", "envelopeStatus", "traceID", "latencyMs", dialect, "operationId",
  "idTransactionMerchant"
)
SELECT o."dateAdded", 'POST',
  CASE o."typeOperation" WHEN 'payIn' THEN '/operation/operation/createPayIn' ELSE '/operation/operation/createPayOut' END,
  200, 'Success', gen_random_uuid()::text, 40 + (abs(hashtext(o."idTransactionMerchant")) % 400),
  'v1', o.id, o."idTransactionMerchant"
FROM "Operation" o`;

export async function fillMirror(databaseUrl: string, operations: number): Promise<FillResult> {
  return withClient(databaseUrl, async (client) => {
    const { rows } = await client.query<{ n: string }>(`SELECT count(*)::text AS n FROM "Operation"`);
    if (rows[0]?.n !== "0") {
      throw new Error(`the console bench needs an empty mirror (found ${rows[0]?.n} operations)`);
    }
    // A bench database: nothing to lose if the server crashes mid-fill.
    await client.query("SET synchronous_commit = off");
    await client.query("SET work_mem = '64MB'");
    await client.query("SET maintenance_work_mem = '512MB'");
    await client.query("SELECT setseed(0.42)");

    const opsStarted = performance.now();
    await withoutSecondaryIndexes(client, "Operation", () =>
      client.query(INSERT_OPERATIONS, [operations, new Date().toISOString()]),
    );
    const operationsMs = performance.now() - opsStarted;

    const callsStarted = performance.now();
    const calls = await withoutSecondaryIndexes(client, "ApiCall", () => client.query(INSERT_API_CALLS));
    const apiCallsMs = performance.now() - callsStarted;

    await client.query(`ANALYZE "Operation"`);
    await client.query(`ANALYZE "ApiCall"`);
    return { operations, apiCalls: calls.rowCount ?? 0, operationsMs, apiCallsMs };
  });
}

/**
 * Bulk loads are much faster when the indexes are built once afterwards. The table's secondary indexes
 * (not the primary key, which foreign keys use) are dropped and re-created from their own definitions in
 * one transaction, so the database ends exactly as migrated, or unchanged if anything fails.
 */
async function withoutSecondaryIndexes<T>(
  client: pg.Client,
  table: string,
  load: () => Promise<T>,
): Promise<T> {
  await client.query("BEGIN");
  try {
    const { rows: indexes } = await client.query<{ name: string; definition: string }>(
      `SELECT i.indexname AS name, i.indexdef AS definition FROM pg_indexes i
       WHERE i.schemaname = current_schema() AND i.tablename = $1
         AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname)`,
      [table],
    );
    for (const index of indexes) await client.query(`DROP INDEX "${index.name}"`);
    const result = await load();
    for (const index of indexes) await client.query(index.definition);
    await client.query("COMMIT");
    return result;
  } catch (error) {
    await client.query("ROLLBACK");
    throw error;
  }
}

async function withClient<T>(databaseUrl: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}
