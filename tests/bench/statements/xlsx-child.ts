/**
 * Child process of the statements bench: renders a statement's XLSX exactly as the export route does
 * (`writeStatementXlsx` over `allPostings`, in one snapshot with the summary) into a sink that only counts, and prints one JSON line with
 * the memory it took. The process is fresh, so the figure is the export's alone: a warm-up export of a
 * small period first loads exceljs, archiver and zlib and warms the JIT, then the baseline is taken after
 * a full collection, and the peak is the kernel's high-water mark (VmHWM, reset just before the export)
 * and, as a cross-check, a 5 ms sampler of RSS and of the V8 heap.
 * Run with `node --expose-gc --import tsx --conditions=react-server` and DATABASE_URL set;
 * argv[2] is `{"from","to","warmUpTo","tz"}` (ISO instants).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { Writable } from "node:stream";
import { getDb } from "@/lib/db";
import { allPostings } from "@/lib/ledger/postings";
import { EXPORT_SNAPSHOT_MS, inLedgerSnapshot } from "@/lib/ledger/snapshot";
import { statementSummary, type StatementPeriod } from "@/lib/ledger/statement";
import type { StatementDocument } from "@/lib/statements/document";
import { writeStatementXlsx } from "@/lib/statements/xlsx";

export type XlsxChildResult = {
  postings: number;
  bytes: number;
  seconds: number;
  /** Resident memory after the warm-up export and a full collection. */
  baselineRssMb: number;
  /** The kernel's peak resident memory during the export (VmHWM after a reset). */
  peakRssMb: number;
  /** The highest RSS and V8 heap (used) the 5 ms sampler saw. */
  sampledPeakRssMb: number;
  sampledPeakHeapUsedMb: number;
  baselineHeapUsedMb: number;
};

const MB = 1024 * 1024;

function statusKb(field: string): number {
  const status = readFileSync("/proc/self/status", "utf8");
  return Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? NaN);
}

async function render(period: StatementPeriod): Promise<{ postings: number; bytes: number }> {
  let bytes = 0;
  let postings = 0;
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      bytes += chunk.length;
      done();
    },
  });
  // One snapshot for the summary and the lines, as the export route reads them (withLiveStatement).
  await inLedgerSnapshot(
    async (tx) => {
      const doc: StatementDocument = {
        merchant: "bench",
        generatedAt: new Date().toISOString(),
        generatedBy: "bench",
        issued: null,
        summary: await statementSummary(period, tx),
        lines: async function* () {
          for await (const chunk of allPostings(period, tx)) {
            postings += chunk.length;
            yield chunk;
          }
        },
      };
      await writeStatementXlsx(doc, sink);
    },
    { timeoutMs: EXPORT_SNAPSHOT_MS },
  );
  return { postings, bytes };
}

async function main(): Promise<void> {
  const arg = JSON.parse(process.argv[2] ?? "{}") as {
    from: string;
    to: string;
    warmUpTo: string;
    tz: string;
  };
  const period: StatementPeriod = { from: new Date(arg.from), to: new Date(arg.to), tz: arg.tz };
  await render({ ...period, to: new Date(arg.warmUpTo) });
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error("run with --expose-gc");
  gc();
  await new Promise((resolve) => setTimeout(resolve, 200));
  gc();
  const baseline = process.memoryUsage();
  let sampledRss = baseline.rss;
  let sampledHeap = baseline.heapUsed;
  const sampler = setInterval(() => {
    const m = process.memoryUsage();
    sampledRss = Math.max(sampledRss, m.rss);
    sampledHeap = Math.max(sampledHeap, m.heapUsed);
  }, 5);
  writeFileSync("/proc/self/clear_refs", "5");
  const started = performance.now();
  const { postings, bytes } = await render(period);
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  const peakRssMb = statusKb("VmHWM") / 1024;
  await getDb().$disconnect();
  const result: XlsxChildResult = {
    postings,
    bytes,
    seconds,
    baselineRssMb: baseline.rss / MB,
    peakRssMb,
    sampledPeakRssMb: sampledRss / MB,
    sampledPeakHeapUsedMb: sampledHeap / MB,
    baselineHeapUsedMb: baseline.heapUsed / MB,
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
