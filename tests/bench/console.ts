import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { getDb } from "@/lib/db";
import { encodeCursor } from "@/lib/operations/list/cursor";
import { parseOperationFilter, type OperationFilter } from "@/lib/operations/list/filter";
import { countByStatus, listOperations } from "@/lib/operations/list/queries";
import { filterConditions, whereClause } from "@/lib/operations/list/where";
import { runBenchChild } from "./child-result";
import type { ExportChildResult } from "./console/export-child";
import { fillMirror } from "./console/fill";
import { CONSOLE_PAGES, FIRST_LOAD_BUDGET_KB, measureFirstLoad } from "./console/first-load";
import type { BenchFigure } from "./sandbox";

/**
 * Console section of `npm run bench`: the operations list, search, CSV export and page weight over a
 * mirror of 1,000,000 operations. Goals (issue "The console › Speed"): first page with typical filters
 * p95 <= 150 ms; a page deep in the list <= 1.5 x the first page; exact search by id or traceID
 * p95 <= 30 ms; CSV export of 1,000,000 rows with peak memory under 256 MB; first-load JavaScript of
 * every page <= 200 kB gzip.
 *
 * Times are of the server-side query functions the pages call (`listOperations`, `countByStatus`),
 * measured in this process against `ctx.databaseUrl`, which the runner also puts in DATABASE_URL.
 */

export type ConsoleBenchContext = {
  databaseUrl: string;
  baseUrl?: string;
  cookie?: string;
  /** An admin's session: the first-load figures cover every page, settings and admin pages included. */
  adminCookie?: string;
  /** The production server's process, whose memory is read while it serves the export. */
  serverPid?: number;
};

const OPERATIONS = 1_000_000;
const WARMUPS = 5;
const SAMPLES = 100;
const COUNT_SAMPLES = 12;
const DIGIT_SAMPLES = 3;
/** "Deep in the list": the page that starts after 90% of the matching rows. */
const DEEP_FRACTION = 0.9;
const ZONE = "Europe/Moscow";
const DAY_MS = 86_400_000;
const EXPORT_CHILD = path.join(import.meta.dirname, "console", "export-child.ts");

type Stats = { p50: number; p95: number };

function percentile(sorted: number[], fraction: number): number {
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1));
  return sorted[index] ?? Number.NaN;
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}

function stats(timings: number[]): Stats {
  const sorted = [...timings].sort((a, b) => a - b);
  return { p50: round(percentile(sorted, 0.5)), p95: round(percentile(sorted, 0.95)) };
}

/** A calendar date `days` before today, as the date field of the filter form sends it. */
function daysAgo(days: number): string {
  return new Date(Date.now() - days * DAY_MS).toISOString().slice(0, 10);
}

function parse(params: string): OperationFilter {
  const parsed = parseOperationFilter(new URLSearchParams(params));
  if (!parsed.ok) throw new Error(`filter "${params}" rejected: ${JSON.stringify(parsed.fieldErrors)}`);
  return parsed.filter;
}

/**
 * Runs `run` a few times to warm up, then `samples` times; the time of each measured call in ms. Each call
 * gets its own index (warm-ups first), so calls that pick a value by index never repeat one.
 */
async function time(
  samples: number,
  run: (index: number) => Promise<unknown>,
  warmups = WARMUPS,
): Promise<number[]> {
  for (let i = 0; i < warmups; i++) await run(i);
  const timings: number[] = [];
  for (let i = 0; i < samples; i++) {
    const started = performance.now();
    await run(warmups + i);
    timings.push(performance.now() - started);
  }
  return timings;
}

/** Like `time` for two calls measured alternately (a, b, b, a, ...); the timings of each. */
async function timePair(
  samples: number,
  a: () => Promise<unknown>,
  b: () => Promise<unknown>,
): Promise<[number[], number[]]> {
  for (let i = 0; i < WARMUPS; i++) await Promise.all([a(), b()]);
  const timings: [number[], number[]] = [[], []];
  for (let i = 0; i < samples; i++) {
    for (const which of i % 2 ? [1, 0] : [0, 1]) {
      const started = performance.now();
      await (which === 0 ? a() : b());
      timings[which]!.push(performance.now() - started);
    }
  }
  return timings;
}

/** The keyset cursor that starts the page after `fraction` of the rows matching the filter. */
async function deepCursor(
  filter: OperationFilter,
  fraction: number,
): Promise<{ cursor: string; offset: number }> {
  const where = whereClause(await filterConditions(filter));
  const db = getDb();
  const [counted] = await db.$queryRaw<
    Array<{ n: number }>
  >`SELECT count(*)::int AS n FROM "Operation" o ${where}`;
  const offset = Math.floor((counted?.n ?? 0) * fraction);
  const [row] = await db.$queryRaw<Array<{ dateAdded: Date; id: string }>>`
    SELECT o."dateAdded", o.id::text AS id FROM "Operation" o ${where}
    ORDER BY o."dateAdded" DESC, o.id DESC OFFSET ${offset} LIMIT 1`;
  if (!row) throw new Error(`no row at offset ${offset} for the deep page`);
  return { cursor: encodeCursor(row), offset };
}

const LISTS: Array<{ label: string; params: string }> = [
  { label: "no filter", params: "" },
  {
    label: "pay-ins, success, last 30 days",
    params: `type=payIn&status=success&from=${daysAgo(30)}&tz=${ZONE}`,
  },
  {
    label: "pay-outs, failed, last 7 days",
    params: `type=payOut&status=failed&from=${daysAgo(7)}&tz=${ZONE}`,
  },
  { label: "sbp, amount 1000..5000", params: "method=sbp&amountMin=1000&amountMax=5000" },
];

async function benchLists(): Promise<BenchFigure[]> {
  const figures: BenchFigure[] = [];
  for (const { label, params } of LISTS) {
    const filter = parse(params);
    const { cursor, offset } = await deepCursor(filter, DEEP_FRACTION);
    const deepParams = `${params}${params ? "&" : ""}after=${cursor}`;
    const page = (which: string, query: string) => async () => {
      const result = await listOperations(parse(query));
      if (result.rows.length !== filter.size) throw new Error(`${which} page of "${label}" is not full`);
    };
    // First and deep pages alternate, so both meet the same background load (the ratio is the point).
    const [firstTimings, deepTimings] = await timePair(
      SAMPLES,
      page("first", params),
      page("deep", deepParams),
    );
    const first = stats(firstTimings);
    const deep = stats(deepTimings);
    const ratio = round(deep.p50 / first.p50);
    figures.push(
      { name: `console: list first page p50 (${label})`, value: first.p50, unit: "ms" },
      {
        name: `console: list first page p95 (${label})`,
        value: first.p95,
        unit: "ms",
        goal: "<= 150 ms",
        ok: first.p95 <= 150,
      },
      {
        name: `console: list deep page p95 (${label}, after row ${offset.toLocaleString("en")})`,
        value: deep.p95,
        unit: "ms",
      },
      {
        name: `console: list deep / first page, medians (${label})`,
        value: ratio,
        unit: "x",
        goal: "<= 1.5",
        ok: ratio <= 1.5,
      },
    );
  }
  // The per-status counts stream in after the table (Suspense); informational.
  for (const { label, params } of LISTS.slice(0, 2)) {
    const counts = stats(await time(COUNT_SAMPLES, () => countByStatus(parse(params))));
    figures.push({
      name: `console: status counts p95 (${label}; streamed after the list)`,
      value: counts.p95,
      unit: "ms",
    });
  }
  return figures;
}

async function benchSearch(): Promise<BenchFigure[]> {
  const db = getDb();
  const operations = await db.$queryRaw<Array<{ id: string; merchantId: string }>>`
    SELECT id::text AS id, "idTransactionMerchant" AS "merchantId" FROM "Operation" TABLESAMPLE SYSTEM (1)
    LIMIT ${WARMUPS + SAMPLES}`;
  const calls = await db.$queryRaw<Array<{ traceID: string; operationId: string }>>`
    SELECT "traceID", "operationId"::text AS "operationId" FROM "ApiCall" TABLESAMPLE SYSTEM (1)
    WHERE "traceID" IS NOT NULL AND "operationId" IS NOT NULL LIMIT ${WARMUPS + SAMPLES}`;
  const cases: Array<{ label: string; items: Array<{ q: string; id: string }> }> = [
    { label: "operation id", items: operations.map((o) => ({ q: o.id, id: o.id })) },
    { label: "idTransactionMerchant", items: operations.map((o) => ({ q: o.merchantId, id: o.id })) },
    { label: "traceID", items: calls.map((c) => ({ q: c.traceID, id: c.operationId })) },
  ];
  const figures: BenchFigure[] = [];
  for (const { label, items } of cases) {
    if (items.length < WARMUPS + SAMPLES)
      throw new Error(`only ${items.length} samples for search by ${label}`);
    let misses = 0;
    const timings = await time(SAMPLES, async (i) => {
      const item = items[i]!;
      const page = await listOperations(parse(`q=${encodeURIComponent(item.q)}`));
      if (page.rows.length !== 1 || page.rows[0]?.id !== item.id) misses++;
    });
    const { p50, p95 } = stats(timings);
    figures.push({ name: `console: exact search by ${label} p50`, value: p50, unit: "ms" });
    figures.push({
      name: `console: exact search by ${label} p95${misses ? ` (${misses} searches missed their operation)` : ""}`,
      value: p95,
      unit: "ms",
      goal: "<= 30 ms",
      ok: p95 <= 30 && misses === 0,
    });
  }
  // Last digits of a recipient number: a suffix match, not an exact search; informational.
  // Slow on a large mirror (a scan), so only a few samples: the median.
  const digits = stats(await time(DIGIT_SAMPLES, (i) => listOperations(parse(`q=${1000 + i * 7}`)), 1));
  figures.push({
    name: "console: search by last 4 digits p50 (suffix match)",
    value: digits.p50,
    unit: "ms",
  });
  return figures;
}

function runExportChild(databaseUrl: string): Promise<ExportChildResult> {
  return runBenchChild<ExportChildResult>(EXPORT_CHILD, databaseUrl);
}

/** Peak memory varies from run to run with V8's and malloc's timing: the worst of a few runs counts. */
const EXPORT_RUNS = 3;

async function benchExport(databaseUrl: string): Promise<BenchFigure[]> {
  const runs: ExportChildResult[] = [];
  for (let i = 0; i < EXPORT_RUNS; i++) runs.push(await runExportChild(databaseUrl));
  const worst = runs.reduce((a, b) => (b.maxRssMb > a.maxRssMb ? b : a));
  const peaks = runs.map((r) => round(r.maxRssMb)).join(", ");
  return [
    {
      name: "console: CSV export rows",
      value: worst.rows,
      unit: "rows",
      goal: `= ${OPERATIONS.toLocaleString("en")}`,
      ok: runs.every((r) => r.rows === OPERATIONS),
    },
    { name: "console: CSV export time (1M rows)", value: round(worst.seconds), unit: "s" },
    {
      name: "console: CSV export child RSS before exporting (runtime + Prisma client, connected)",
      value: round(worst.baselineRssMb),
      unit: "MB",
    },
    { name: "console: CSV export size", value: round(worst.bytes / 1_000_000), unit: "MB" },
    {
      name: `console: CSV export peak RSS of a process doing only the export (1M rows, worst of ${EXPORT_RUNS}: ${peaks})`,
      value: round(worst.maxRssMb),
      unit: "MB",
    },
    {
      name: "console: CSV export, that process's peak over its RSS before exporting",
      value: round(worst.maxRssMb - worst.baselineRssMb),
      unit: "MB",
    },
  ];
}

function memoryOf(pid: number): { rssMb: number; peakMb: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? NaN);
  return { rssMb: kb("VmRSS") / 1024, peakMb: kb("VmHWM") / 1024 };
}

/** The export as users get it: over HTTP from the production server, whose memory is read around it. */
async function benchServerExport(baseUrl: string, cookie: string, pid: number): Promise<BenchFigure[]> {
  writeFileSync(`/proc/${pid}/clear_refs`, "5"); // resets the process's peak RSS (VmHWM)
  const before = memoryOf(pid);
  const started = performance.now();
  const response = await fetch(`${baseUrl}/api/exports/operations`, { headers: { cookie } });
  if (!response.ok || !response.body) throw new Error(`export answered HTTP ${response.status}`);
  const reader = response.body.getReader();
  let lines = 0;
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    for (let at = read.value.indexOf(10); at !== -1; at = read.value.indexOf(10, at + 1)) lines++;
  }
  const seconds = (performance.now() - started) / 1000;
  const after = memoryOf(pid);
  return [
    {
      name: `console: CSV export over HTTP from the production server (${(lines - 1).toLocaleString("en")} rows)`,
      value: round(seconds),
      unit: "s",
    },
    { name: "console: production server RSS before the export", value: round(before.rssMb), unit: "MB" },
    // The goal: what the export costs the server that serves it. The server's own footprint (Next.js,
    // Prisma, the rendered pages) is there before and after, and is reported above.
    {
      name: "console: CSV export memory: production server peak RSS during the export minus before",
      value: round(after.peakMb - before.rssMb),
      unit: "MB",
      goal: "< 256 MB",
      ok: after.peakMb - before.rssMb < 256,
    },
  ];
}

async function benchFirstLoad(baseUrl: string, cookie: string): Promise<BenchFigure[]> {
  const pages = await measureFirstLoad(baseUrl, cookie, CONSOLE_PAGES);
  return pages.map((page) => {
    const kb = round(page.encodedBytes / 1000);
    const problems = [
      page.finalPath !== page.path ? `redirected to ${page.finalPath}: not signed in?` : "",
      page.status !== 200 ? `HTTP ${page.status}` : "",
      page.scripts === 0 ? "no scripts loaded" : "",
      page.failedScripts ? `${page.failedScripts} scripts failed` : "",
      page.serverLibraries.length ? `ships ${page.serverLibraries.join(", ")}` : "",
    ].filter(Boolean);
    const note = problems.length ? `; ${problems.join(", ")}` : "";
    const name = `console: first-load JS ${page.path} (${page.scripts} scripts, gzip as served${note})`;
    return {
      name,
      value: kb,
      unit: "kB",
      goal: `<= ${FIRST_LOAD_BUDGET_KB} kB`,
      ok: kb <= FIRST_LOAD_BUDGET_KB && problems.length === 0,
    };
  });
}

/** Fails fast when the process's Prisma client was made for another database than the bench's. */
async function checkDatabase(databaseUrl: string): Promise<void> {
  const expected = decodeURIComponent(new URL(databaseUrl).pathname.slice(1));
  const [row] = await getDb().$queryRaw<Array<{ name: string }>>`SELECT current_database() AS name`;
  if (row?.name !== expected) {
    throw new Error(
      `getDb() talks to "${row?.name}", not the bench database "${expected}"; set DATABASE_URL first`,
    );
  }
}

export async function benchConsole(ctx: ConsoleBenchContext): Promise<BenchFigure[]> {
  const started = performance.now();
  await checkDatabase(ctx.databaseUrl);
  const fill = await fillMirror(ctx.databaseUrl, OPERATIONS);
  const figures: BenchFigure[] = [
    {
      name: `console: fill mirror (${fill.operations.toLocaleString("en")} operations, set-based SQL)`,
      value: round(fill.operationsMs / 1000),
      unit: "s",
    },
    {
      name: `console: fill API calls (${fill.apiCalls.toLocaleString("en")} traceIDs)`,
      value: round(fill.apiCallsMs / 1000),
      unit: "s",
    },
  ];
  try {
    figures.push(...(await benchLists()));
    figures.push(...(await benchSearch()));
  } finally {
    // Nothing else here uses the client; closed so the runner can drop the database afterwards.
    await getDb().$disconnect();
  }
  figures.push(...(await benchExport(ctx.databaseUrl)));
  if (ctx.baseUrl && ctx.cookie) {
    if (ctx.serverPid) figures.push(...(await benchServerExport(ctx.baseUrl, ctx.cookie, ctx.serverPid)));
    figures.push(...(await benchFirstLoad(ctx.baseUrl, ctx.adminCookie ?? ctx.cookie)));
  }
  figures.push({
    name: "console: section run time",
    value: round((performance.now() - started) / 1000),
    unit: "s",
  });
  return figures;
}
