/**
 * Child process of the console bench: streams the CSV export of every operation (no filter) exactly as
 * the export route does (`csvStream(exportOperationsCsv(...))`) into a sink that only counts, then prints
 * one JSON line with rows, bytes, seconds and the process's peak resident memory.
 * Run with `node --import tsx --conditions=react-server` and DATABASE_URL set.
 */
import { getDb } from "@/lib/db";
import { csvStream } from "@/lib/csv/stream";
import { exportOperationsCsv } from "@/lib/operations/export/operations-csv";
import { parseOperationFilter } from "@/lib/operations/list/filter";
import { BENCH_BALANCE_CURRENCY } from "./fill";

export type ExportChildResult = {
  rows: number;
  bytes: number;
  seconds: number;
  /** Resident memory once the Prisma client is connected, before the export starts. */
  baselineRssMb: number;
  /** Peak resident memory of the whole process. */
  maxRssMb: number;
};

const MB = 1024 * 1024;

const NEWLINE = 10;

async function main(): Promise<void> {
  const parsed = parseOperationFilter(new URLSearchParams(process.argv[2] ?? ""));
  if (!parsed.ok) throw new Error(`bad export filter: ${JSON.stringify(parsed.fieldErrors)}`);
  await getDb().$queryRaw`SELECT 1`;
  const baselineRssMb = process.memoryUsage().rss / MB;
  const started = performance.now();
  const reader = csvStream(exportOperationsCsv(parsed.filter, BENCH_BALANCE_CURRENCY)).getReader();
  let lines = 0;
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    for (let at = value.indexOf(NEWLINE); at !== -1; at = value.indexOf(NEWLINE, at + 1)) lines++;
  }
  const seconds = (performance.now() - started) / 1000;
  await getDb().$disconnect();
  const result: ExportChildResult = {
    rows: lines - 1, // the header line
    bytes,
    seconds,
    baselineRssMb,
    maxRssMb: (process.resourceUsage().maxRSS * 1024) / MB, // maxRSS is in KiB
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
