// Statements over a large mirror: a one-month summary, the first page of its postings, an XLSX export of
// 100,000 postings (memory of the process rendering it) and 365 days of ledger balance history.
import { readFileSync, writeFileSync } from "node:fs";
import { Writable } from "node:stream";
import pg from "pg";
import { getDb } from "@/lib/db";
import { dailyClosings } from "@/lib/ledger/balance";
import { allPostings, postingsPage } from "@/lib/ledger/postings";
import { statementSummary, type StatementPeriod } from "@/lib/ledger/statement";
import type { StatementDocument } from "@/lib/statements/document";
import { writeStatementXlsx } from "@/lib/statements/xlsx";
import { fillMirror } from "./console/fill";
import type { BenchFigure } from "./sandbox";

const OPERATIONS = 1_000_000;
const EXPORT_POSTINGS = 100_000;
const RUNS = 3;

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

function memory(): { rssMb: number; peakMb: number } {
  const status = readFileSync("/proc/self/status", "utf8");
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? NaN);
  return { rssMb: kb("VmRSS") / 1024, peakMb: kb("VmHWM") / 1024 };
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

  // A period holding exactly EXPORT_POSTINGS postings: from the start of the month to the Nth posting.
  const nth = await getDb().$queryRaw<{ at: Date }[]>`
    SELECT at FROM "LedgerPosting" WHERE at >= ${month.from.toISOString()}::timestamptz
    ORDER BY at OFFSET ${EXPORT_POSTINGS} LIMIT 1`;
  const exportPeriod: StatementPeriod = { from: month.from, to: nth[0]!.at, tz: month.tz };
  const doc: StatementDocument = {
    merchant: "bench",
    generatedAt: now.toISOString(),
    generatedBy: "bench",
    issued: null,
    summary: await statementSummary(exportPeriod),
    lines: () => allPostings(exportPeriod),
  };
  let bytes = 0;
  let lines = 0;
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      bytes += chunk.length;
      done();
    },
  });
  global.gc?.();
  writeFileSync("/proc/self/clear_refs", "5");
  const before = memory();
  const counted: StatementDocument = {
    ...doc,
    lines: async function* () {
      for await (const chunk of doc.lines()) {
        lines += chunk.length;
        yield chunk;
      }
    },
  };
  const xlsx = await timed(() => writeStatementXlsx(counted, sink));
  const after = memory();
  figures.push(
    {
      name: `statements: XLSX export of ${lines} postings, streamed (${round(bytes / 2 ** 20)} MB file)`,
      value: round(xlsx.ms / 1000),
      unit: "s",
    },
    {
      name: "statements: XLSX export, peak RSS of the rendering process minus before",
      value: round(after.peakMb - before.rssMb),
      unit: "MB",
      goal: "< 64",
      ok: after.peakMb - before.rssMb < 64,
    },
  );

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
