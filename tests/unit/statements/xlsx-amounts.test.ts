// XLSX amount cells: a number where a spreadsheet shows every digit of the exact decimal (finance sums
// those), the exact decimal as right-aligned text where it would not (NUMERIC(24,4) holds 20 digits, a
// double 15 to 17, a spreadsheet shows 15). Synthetic statement, no database.
import ExcelJS from "exceljs";
import { describe, expect, it } from "vitest";
import { writeStatementXlsx } from "@/lib/statements/xlsx";
import { amountCell } from "@/lib/statements/xlsx-cells";
import { renderStatement } from "../../support/statement-files";
import { syntheticPosting, syntheticStatement } from "../../support/synthetic-statement";

const HUGE = "123456789012345.6789";

describe("an amount as a cell", () => {
  it.each([
    ["1234.5678", 1234.5678],
    ["-0.0001", -0.0001],
    ["0.0000", 0],
    ["95.5", 95.5],
    ["99999999999.9999", 99999999999.9999], // 15 digits
    ["-99999999999.9999", -99999999999.9999],
    ["100000000000000000.0000", 1e17],
    ["123456789012.3456", { exact: "123456789012.3456" }], // 16 digits: a spreadsheet would show …012.3460
    [HUGE, { exact: HUGE }], // the double is 123456789012345.671875
    ["-9999999999999999.9999", { exact: "-9999999999999999.9999" }],
    [null, null],
    ["", null],
  ])("%s → %o", (value, cell) => {
    expect(amountCell(value)).toEqual(cell);
  });
});

describe("XLSX export of amounts beyond a double", () => {
  it("writes them as their exact decimal, right-aligned; the others stay numbers", async () => {
    const doc = syntheticStatement(async function* () {
      yield [syntheticPosting(0, { amount: HUGE, balance: HUGE, amountPayment: "100.0000" })];
    }, HUGE);
    const bytes = await renderStatement(doc, writeStatementXlsx);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(
      bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer,
    );
    const postings = wb.getWorksheet("Postings")!;
    const line = postings.getRow(2);
    expect([3, 4, 5, 11].map((c) => line.getCell(c).value)).toEqual([HUGE, 0, HUGE, 100]);
    expect(line.getCell(3).alignment).toEqual({ horizontal: "right" });
    expect(line.getCell(4).alignment).toBeUndefined();
    const totals = postings.getRow(3);
    expect([1, 3, 4, 5].map((c) => totals.getCell(c).value)).toEqual(["Totals", HUGE, 0, HUGE]);
    expect(totals.getCell(5).alignment).toEqual({ horizontal: "right" });

    const summary = wb.getWorksheet("Summary")!.getSheetValues() as unknown[][];
    expect(summary.filter(Boolean).map((r) => r.slice(1, 3))).toContainEqual(["Closing balance", HUGE]);
  });
});
