// `npm run bench -- retention`: support's trace lookup on a large ApiCall table (10,000,000 rows by
// default, BENCH_API_CALLS to change); the same rows copied into monthly partitions, the lookup on that
// layout and the oldest month dropped whole; then one retention pass deleting the oldest quarter of the
// global table in batches, and the lookup again. Goal: lookup p95 <= 30 ms with 10,000,000 rows.
import { createHash } from "node:crypto";
import pg from "pg";
import { failedApiCall, pruneExpiredRecords, RETENTION_BATCH_SIZE } from "@/lib/retention/prune";
import { getSettings } from "@/lib/settings/settings";
import { lookupTrace } from "@/lib/trace/lookup";
import type { BenchFigure } from "./sandbox";

const ROWS = Number(process.env.BENCH_API_CALLS ?? 10_000_000);
const DAYS = 120;
const LOOKUPS = 300;
// Untimed lookups first, of other rows: the first layout measured would otherwise also pay for warming
// the lookup's code, and the comparison of the two layouts would lean on which went first.
const WARM_UP = 50;
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
  for (let i = 0; i < WARM_UP; i++) await lookupTrace(pick());
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

/** [start, next start) of each UTC calendar month from min's to max's. */
function monthsCovering(min: Date, max: Date): [Date, Date][] {
  const months: [Date, Date][] = [];
  for (let y = min.getUTCFullYear(), m = min.getUTCMonth(); Date.UTC(y, m) <= max.getTime(); m++) {
    months.push([new Date(Date.UTC(y, m)), new Date(Date.UTC(y, m + 1))]);
  }
  return months;
}

/** A copy of ApiCall partitioned by month, with the same indexes (the primary key must hold "startedAt"). */
async function buildByMonth(client: pg.Client): Promise<{ partitions: string[]; figure: BenchFigure }> {
  const t = performance.now();
  const { rows: range } = await client.query<{ min: Date; max: Date }>(
    `SELECT min("startedAt") AS min, max("startedAt") AS max FROM "ApiCall"`,
  );
  if (!range[0]) throw new Error("ApiCall is empty");
  await client.query(
    `CREATE TABLE "ApiCallByMonth" (LIKE "ApiCall" INCLUDING DEFAULTS) PARTITION BY RANGE ("startedAt")`,
  );
  const partitions: string[] = [];
  for (const [from, to] of monthsCovering(range[0].min, range[0].max)) {
    const name = `ApiCallByMonth_${from.toISOString().slice(0, 7).replace("-", "_")}`;
    await client.query(
      `CREATE TABLE "${name}" PARTITION OF "ApiCallByMonth"
       FOR VALUES FROM ('${from.toISOString()}') TO ('${to.toISOString()}')`,
    );
    partitions.push(name);
  }
  await client.query(`INSERT INTO "ApiCallByMonth" SELECT * FROM "ApiCall"`);
  await client.query(`ALTER TABLE "ApiCallByMonth" ADD PRIMARY KEY (id, "startedAt")`);
  const { rows: indexes } = await client.query<{ def: string }>(
    `SELECT pg_get_indexdef(indexrelid) AS def FROM pg_index
     WHERE indrelid = '"ApiCall"'::regclass AND NOT indisprimary`,
  );
  for (const { def } of indexes) {
    // Same definition on the parent (each partition gets its own), under a name of its own.
    const mirrored = def.replaceAll('"ApiCall', '"ApiCallByMonth');
    console.log(`[bench] retention: ${mirrored}`);
    await client.query(mirrored);
  }
  await client.query(`VACUUM ANALYZE "ApiCallByMonth"`);
  const seconds = round((performance.now() - t) / 1000);
  const { rows: size } = await client.query<{ bytes: string }>(
    `SELECT sum(pg_total_relation_size(relid)) AS bytes FROM pg_partition_tree('"ApiCallByMonth"')`,
  );
  console.log(`[bench] retention: monthly partitions ${partitions.join(", ")}`);
  return {
    partitions,
    figure: {
      name: `retention: the same rows in ${partitions.length} monthly partitions (copy and index ${seconds} s)`,
      value: round(Number(size[0]?.bytes ?? 0) / 2 ** 30, 2),
      unit: "GiB with indexes",
    },
  };
}

type PlanNode = { "Relation Name"?: string; Plans?: PlanNode[] };

/** The tables a traceID lookup's plan reads ("ApiCall" being the partitioned table by then). */
async function tablesProbed(client: pg.Client, traceID: string): Promise<string[]> {
  const { rows } = await client.query<{ "QUERY PLAN": { Plan: PlanNode }[] }>(
    `EXPLAIN (FORMAT JSON) SELECT * FROM "ApiCall" WHERE "traceID" = $1`,
    [traceID],
  );
  const tables = new Set<string>();
  const walk = (node: PlanNode): void => {
    if (node["Relation Name"]) tables.add(node["Relation Name"]);
    node.Plans?.forEach(walk);
  };
  const plan = rows[0]?.["QUERY PLAN"][0]?.Plan;
  if (plan) walk(plan);
  return [...tables];
}

/** Renames in one query string, hence one transaction. */
const rename = (client: pg.Client, moves: [from: string, to: string][]) =>
  client.query(moves.map(([from, to]) => `ALTER TABLE "${from}" RENAME TO "${to}";`).join("\n"));

/**
 * The other layout the issue allows: the same rows partitioned by month, the product's lookups run on it
 * unchanged (under the name "ApiCall"), then the oldest month dropped whole.
 */
async function benchMonthlyPartitions(
  client: pg.Client,
  byTrace: () => string,
  byMerchant: () => string,
): Promise<BenchFigure[]> {
  const { partitions, figure } = await buildByMonth(client);
  const layout = `${partitions.length} monthly partitions`;
  const figures = [figure];
  await rename(client, [
    ["ApiCall", "ApiCallGlobal"],
    ["ApiCallByMonth", "ApiCall"],
  ]);
  try {
    figures.push(
      await lookups(`by traceID, ${ROWS.toLocaleString("en")} rows in ${layout}`, byTrace),
      await lookups(`by idTransactionMerchant in ${layout}`, byMerchant),
    );
    const probed = await tablesProbed(client, byTrace());
    console.log(`[bench] retention: one traceID lookup probes ${probed.length} tables: ${probed.join(", ")}`);
    figures.push({
      name: `retention: tables one traceID lookup probes, ${layout} (EXPLAIN)`,
      value: probed.length,
      unit: "partitions probed per traceID lookup",
    });

    const oldest = partitions[0] ?? "";
    const { rows: counts } = await client.query<{ rows: string; failed: string }>(
      `SELECT count(*) AS rows, count(*) FILTER (WHERE ${failedApiCall}) AS failed FROM "${oldest}" s`,
    );
    const t = performance.now();
    await client.query(`ALTER TABLE "ApiCall" DETACH PARTITION "${oldest}"`);
    await client.query(`DROP TABLE "${oldest}"`);
    const dropMs = round(performance.now() - t, 1);
    const removed = Number(counts[0]?.rows ?? 0);
    figures.push(
      {
        name: `retention: drop the oldest month whole (${oldest}: detach + drop, ${removed.toLocaleString("en")} rows)`,
        value: dropMs,
        unit: "ms",
      },
      {
        name: `retention: rows of that month retention must keep (failed calls, kept 365 days)`,
        value: Number(counts[0]?.failed ?? 0),
        unit: "rows a whole-month drop deletes",
      },
    );
  } finally {
    await rename(client, [
      ["ApiCall", "ApiCallByMonthDone"],
      ["ApiCallGlobal", "ApiCall"],
    ]);
    await client.query(`DROP TABLE "ApiCallByMonthDone"`);
  }
  return figures;
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
    const byMerchant = () => `bench-merchant-${Math.floor(random() / 3)}`;
    figures.push(await lookups("by idTransactionMerchant", byMerchant));
    figures.push(...(await benchMonthlyPartitions(client, byTrace, byMerchant)));

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
