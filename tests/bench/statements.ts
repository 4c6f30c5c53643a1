// Statements over a large mirror: a one-month summary, the first page of its postings, an XLSX export of
// 100,000 postings (memory of the process rendering it) and 365 days of ledger balance history.
// `npm run bench -- statements --only=xlsx --operations=400000`: only the export, over a smaller mirror
// (the export needs 100,000 postings in the last 30 days: 400,000 operations hold about 220,000).
import path from "node:path";
import pg from "pg";
import { getDb } from "@/lib/db";
import { dailyClosings } from "@/lib/ledger/balance";
import { postingsPage } from "@/lib/ledger/postings";
import { statementSummary, type StatementPeriod } from "@/lib/ledger/statement";
import { runBenchChild } from "./child-result";
import { fillMirror } from "./console/fill";
import type { BenchFigure } from "./sandbox";
import type { XlsxChildResult } from "./statements/xlsx-child";

const option = (name: string) =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? null;
const OPERATIONS = Number(option("operations") ?? 1_000_000);
const ONLY = option("only");
const EXPORT_POSTINGS = 100_000;
const WARM_UP_POSTINGS = 5_000;
const RUNS = 3;
/** Peak memory varies from run to run with V8's and malloc's timing: the worst run counts. */
const EXPORT_RUNS = 2;
const XLSX_CHILD = path.join(import.meta.dirname, "statements", "xlsx-child.ts");

const round = (n: number) => Math.round(n * 10) / 10;

async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const t = performance.now();
  const value = await fn();
  return { ms: performance.now() - t, value };
}

/** Best and worst of a few runs after one warm-up (the first run also pays for cold caches). */
async function measure(fn: () => Promise<unknown>): Promise<{ cold: number; best: number; worst: number }> {
  const cold = (await timed(fn)).ms;
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) times.push((await timed(fn)).ms);
  return { cold, best: Math.min(...times), worst: Math.max(...times) };
}

function runXlsxChild(databaseUrl: string, arg: object): Promise<XlsxChildResult> {
  return runBenchChild<XlsxChildResult>(XLSX_CHILD, databaseUrl, {
    nodeFlags: ["--expose-gc"],
    args: [JSON.stringify(arg)],
  });
}

export async function benchStatements(ctx: { databaseUrl: string }): Promise<BenchFigure[]> {
  const figures: BenchFigure[] = [];
  const fill = await timed(() => fillMirror(ctx.databaseUrl, OPERATIONS));
  const pgClient = new pg.Client({ connectionString: ctx.databaseUrl });
  await pgClient.connect();
  await pgClient.query('VACUUM ANALYZE "Operation", "LedgerPosting", "LedgerBucket"');
  const { rows } = await pgClient.query<{ n: string }>('SELECT count(*)::text AS n FROM "LedgerPosting"');
  await pgClient.end();
  figures.push({
    name: `statements: fill ${OPERATIONS} operations with postings derived by the triggers (${rows[0]?.n} postings)`,
    value: round(fill.ms / 1000),
    unit: "s",
  });

  // The last 30 days of the 90-day history, in Moscow days.
  const now = new Date();
  const month: StatementPeriod = {
    from: new Date(now.getTime() - 30 * 86_400_000),
    to: now,
    tz: "Europe/Moscow",
  };
  // A period holding exactly EXPORT_POSTINGS postings: from the start of the month to the Nth posting;
  // the warm-up export in the child renders the first WARM_UP_POSTINGS of it.
  const nth = (n: number) => getDb().$queryRaw<{ at: Date }[]>`
    SELECT at FROM "LedgerPosting" WHERE at >= ${month.from.toISOString()}::timestamptz
    ORDER BY at OFFSET ${n} LIMIT 1`;
  const [exportEnd] = await nth(EXPORT_POSTINGS);
  const [warmUpEnd] = await nth(WARM_UP_POSTINGS);
  if (!exportEnd || !warmUpEnd) throw new Error(`fewer than ${EXPORT_POSTINGS} postings in the last 30 days`);
  const runs: XlsxChildResult[] = [];
  for (let i = 0; i < EXPORT_RUNS; i++)
    runs.push(
      await runXlsxChild(ctx.databaseUrl, {
        from: month.from.toISOString(),
        to: exportEnd.at.toISOString(),
        warmUpTo: warmUpEnd.at.toISOString(),
        tz: month.tz,
      }),
    );
  const growth = (r: XlsxChildResult) => r.peakRssMb - r.baselineRssMb;
  const worst = runs.reduce((w, r) => (growth(r) > growth(w) ? r : w));
  figures.push(
    {
      name: `statements: XLSX export of ${worst.postings} postings, streamed (${round(worst.bytes / 2 ** 20)} MB file)`,
      value: round(worst.seconds),
      unit: "s",
    },
    {
      name:
        `statements: XLSX export, peak RSS minus baseline of a fresh rendering process, worst of ${EXPORT_RUNS} ` +
        `(runs ${runs.map((r) => round(growth(r))).join(", ")} MB; baseline ${round(worst.baselineRssMb)} MB; ` +
        `V8 heap used ${round(worst.baselineHeapUsedMb)} -> ${round(worst.sampledPeakHeapUsedMb)} MB)`,
      value: round(growth(worst)),
      unit: "MB",
      goal: "< 64",
      ok: growth(worst) < 64,
    },
  );
  if (ONLY === "xlsx") return figures;

  const summary = await measure(() => statementSummary(month));
  figures.push({
    name: `statements: one-month summary (cold ${round(summary.cold)} ms; best of ${RUNS} ${round(summary.best)} ms)`,
    value: round(summary.worst),
    unit: "ms",
    goal: "≤ 2000",
    ok: summary.worst <= 2000,
  });
  const page = await measure(() => postingsPage(month, null, 100));
  figures.push({
    name: `statements: first page of the month's postings, 100 lines (cold ${round(page.cold)} ms)`,
    value: round(page.worst),
    unit: "ms",
    goal: "≤ 150",
    ok: page.worst <= 150,
  });

  const year: StatementPeriod = {
    from: new Date(now.getTime() - 365 * 86_400_000),
    to: now,
    tz: "Europe/Moscow",
  };
  const history = await measure(() => dailyClosings(year));
  figures.push({
    name: `statements: ledger balance history, 365 daily closings (cold ${round(history.cold)} ms)`,
    value: round(history.worst),
    unit: "ms",
    goal: "≤ 500",
    ok: history.worst <= 500,
  });
  return figures;
}
