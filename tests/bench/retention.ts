// `npm run bench -- retention`: support's trace lookup on a large ApiCall table (10,000,000 rows by
// default, BENCH_API_CALLS to change), then one retention pass deleting the oldest quarter in batches,
// and the lookup again. Goal: lookup p95 <= 30 ms with 10,000,000 rows.
import { createHash } from "node:crypto";
import pg from "pg";
import { pruneExpiredRecords, RETENTION_BATCH_SIZE } from "@/lib/retention/prune";
import { getSettings } from "@/lib/settings/settings";
import { lookupTrace } from "@/lib/trace/lookup";
import type { BenchFigure } from "./sandbox";

const ROWS = Number(process.env.BENCH_API_CALLS ?? 10_000_000);
const DAYS = 120;
const LOOKUPS = 300;
const INSERT_CHUNK = 1_000_000;

const round = (n: number, digits = 0) => Number(n.toFixed(digits));
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

/** Rows spread evenly over DAYS days up to now, one in three tied to an operation, one in five failed. */
async function fill(client: pg.Client): Promise<void> {
  for (let from = 1; from <= ROWS; from += INSERT_CHUNK) {
    const to = Math.min(ROWS, from + INSERT_CHUNK - 1);
    await client.query(
      `INSERT INTO "ApiCall" ("startedAt", method, path, "requestBody", "responseBody", "httpStatus",
         "envelopeStatus", "traceID", "latencyMs", error, "operationId", "idTransactionMerchant")
       SELECT now() - make_interval(secs => ($3::bigint - g) * ($4::float8 * 86400 / $3::bigint)),
              CASE WHEN g % 3 = 0 THEN 'POST' ELSE 'GET' END,
              CASE WHEN g % 3 = 0 THEN '/api/v1/payIn' ELSE '/api/v1/operations/' || g END,
              '{"amount":"100.0000","clientID":"client-' || (g % 997) || '"}',
              '{"status":"Success","data":{"id":"' || md5(g::text) || '","status":"processing"}}',
              CASE WHEN g % 5 = 0 THEN 502 ELSE 200 END,
              CASE WHEN g % 5 = 0 THEN NULL ELSE 'Success' END,
              'bench-' || md5(g::text), 40 + g % 200,
              CASE WHEN g % 5 = 0 THEN 'upstream 502' END,
              CASE WHEN g % 3 = 0 THEN md5('op' || (g / 3))::uuid END,
              CASE WHEN g % 3 = 0 THEN 'bench-merchant-' || (g / 3) END
       FROM generate_series($1::bigint, $2::bigint) AS g`,
      [from, to, ROWS, DAYS],
    );
    console.log(`[bench] retention: ${to.toLocaleString("en")} ApiCall rows`);
  }
  await client.query(`VACUUM ANALYZE "ApiCall"`);
}

async function lookups(label: string, pick: () => string): Promise<BenchFigure> {
  const times: number[] = [];
  for (let i = 0; i < LOOKUPS; i++) {
    const query = pick();
    const t = performance.now();
    await lookupTrace(query);
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  const p95 = round(percentile(times, 95), 1);
  return {
    name: `retention: trace lookup ${label}, p95 (p50 ${round(percentile(times, 50), 1)} ms)`,
    value: p95,
    unit: "ms",
    goal: "<= 30 ms",
    ok: p95 <= 30,
  };
}

export async function benchRetention(ctx: { databaseUrl: string }): Promise<BenchFigure[]> {
  const client = new pg.Client({ connectionString: ctx.databaseUrl });
  await client.connect();
  const figures: BenchFigure[] = [];
  try {
    const t0 = performance.now();
    await fill(client);
    const fillSeconds = round((performance.now() - t0) / 1000);
    const { rows: size } = await client.query<{ bytes: string }>(
      `SELECT pg_total_relation_size('"ApiCall"') AS bytes`,
    );
    figures.push({
      name: `retention: ${ROWS.toLocaleString("en")} ApiCall rows over ${DAYS} days (insert ${fillSeconds} s)`,
      value: round(Number(size[0]?.bytes ?? 0) / 2 ** 30, 2),
      unit: "GiB with indexes",
    });
    const random = () => 1 + Math.floor(Math.random() * ROWS);
    const byTrace = () => `bench-${md5Hex(random())}`;
    figures.push(await lookups(`by traceID, ${ROWS.toLocaleString("en")} rows`, byTrace));
    figures.push(
      await lookups("by idTransactionMerchant", () => `bench-merchant-${Math.floor(random() / 3)}`),
    );

    // retention at 90 days: the oldest quarter goes (the failed fifth of it stays, 365 days)
    const settings = await getSettings();
    const t1 = performance.now();
    const result = await pruneExpiredRecords({ settings, budgetMs: 60 * 60 * 1000 });
    const pruneSeconds = (performance.now() - t1) / 1000;
    figures.push(
      {
        name: `retention: one pass, ${result.apiCalls.deleted.toLocaleString("en")} rows deleted of ${result.apiCalls.scanned.toLocaleString("en")} scanned (${round(pruneSeconds)} s)`,
        value: round((pruneSeconds * 1000) / Math.max(1, result.apiCalls.batches)),
        unit: `ms per ${RETENTION_BATCH_SIZE}-row batch`,
      },
      await lookups("by traceID after the pass", byTrace),
    );
  } finally {
    await client.end();
  }
  return figures;
}

function md5Hex(n: number): string {
  return createHash("md5").update(String(n)).digest("hex");
}
