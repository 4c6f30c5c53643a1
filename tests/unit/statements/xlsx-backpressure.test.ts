// The XLSX export waits for exceljs's compressor between chunks of rows, through a stream exceljs does not
// document (lib/statements/xlsx.ts). This holds exceljs to that shape: if an upgrade moves it, the wait
// would silently stop and a large export would hold its uncompressed XML in memory again.
import { Writable } from "node:stream";
import ExcelJS from "exceljs";
import { describe, expect, it } from "vitest";
import { MAX_BACKLOG_BYTES, compressorDrained, worksheetBacklog } from "@/lib/statements/xlsx";

const ROWS_PER_CHUNK = 5_000;

function row(i: number) {
  return [
    new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
    "Pay-in credited",
    1234.5678 + i,
    0,
    98765.4321 + i,
    `5eed0000-0000-4000-8000-${String(i).padStart(12, "0")}`,
    `order-${i}`,
    "payIn",
    "success",
    "toCard",
    117_901.23 + i,
    "RUB",
    95.5,
    "Ivan I.",
    "Sberbank",
    null,
    null,
  ];
}

describe("XLSX export backpressure", () => {
  it("finds the stream behind a worksheet, sees rows pile up in it, and waits until it drains", async () => {
    let bytes = 0;
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        bytes += chunk.length;
        done();
      },
    });
    const wb = new ExcelJS.stream.xlsx.WorkbookWriter({
      stream: sink,
      useStyles: true,
      useSharedStrings: false,
    });
    const first = wb.addWorksheet("summary");
    first.addRow(["statement"]).commit();
    first.commit();
    const sheet = wb.addWorksheet("postings");
    sheet.getRow(1).commit();

    for (let i = 0; i < ROWS_PER_CHUNK; i++) sheet.addRow(row(i)).commit();
    const piled = worksheetBacklog(sheet);
    expect(piled).not.toBeNull();
    expect(piled!.bytes).toBeGreaterThan(MAX_BACKLOG_BYTES);
    await compressorDrained(sheet);
    expect(worksheetBacklog(sheet)!.bytes).toBeLessThanOrEqual(MAX_BACKLOG_BYTES);

    for (let chunk = 1; chunk < 6; chunk++) {
      for (let i = 0; i < ROWS_PER_CHUNK; i++) sheet.addRow(row(chunk * ROWS_PER_CHUNK + i)).commit();
      await compressorDrained(sheet);
      expect(worksheetBacklog(sheet)!.bytes).toBeLessThanOrEqual(MAX_BACKLOG_BYTES);
    }
    sheet.commit();
    await wb.commit();
    expect(bytes).toBeGreaterThan(100_000);
  }, 60_000);
});
