// The lines of statement exports, rendered from a statement built by hand (no database): the PDF writes a
// posting's time on the statement zone's clock, the day the per-day table counts it in, and the CSV
// escapes every text cell that comes from the platform (its currency field is free text), so a value
// that a spreadsheet would run as a formula stays text and never breaks the columns.
import ExcelJS from "exceljs";
import { describe, expect, it } from "vitest";
import type { StatementPosting } from "@/lib/ledger/postings";
import type { StatementSummary } from "@/lib/ledger/statement";
import type { StatementDocument } from "@/lib/statements/document";
import { renderers } from "@/lib/statements/respond";
import { pdfText, renderStatement } from "../../support/statement-files";

const FROM = "2031-02-28T21:00:00.000Z"; // 1 March 2031, 00:00 in Moscow
const TO = "2031-03-10T21:00:00.000Z";

function line(overrides: Partial<StatementPosting>): StatementPosting {
  return {
    at: "2031-03-01T10:00:00.000Z",
    kind: "payInCredit",
    amount: "100.0000",
    holdDelta: "0.0000",
    balance: "100.0000",
    key: "0b8f3c2e-4a7d-4e7b-9d1e-2f6a8c0b1d3e",
    idTransactionMerchant: "order-1",
    typeOperation: "payIn",
    status: "success",
    paymentMethod: "toCard",
    amountPayment: "9550",
    currencyPayment: "RUB",
    exchangeRate: "95.5",
    counterparty: null,
    bankName: null,
    movementKind: null,
    reference: null,
    note: null,
    ...overrides,
  };
}

function documentOf(lines: StatementPosting[], tz: string): StatementDocument {
  const zero = "0.0000";
  const closing = lines.at(-1)?.balance ?? zero;
  const summary: StatementSummary = {
    period: { from: FROM, to: TO, tz },
    currency: "USDT",
    opening: { available: zero, holds: zero },
    closing: { available: closing, holds: zero },
    totals: {
      credits: closing,
      debits: zero,
      commissions: zero,
      holds: zero,
      outside: zero,
      movements: closing,
    },
    check: { openingPlusMovements: closing, closing, difference: zero, ok: true },
    byKind: [],
    counts: [],
    days: [],
    freshness: { lastCompleteReconciliationAt: null, covered: false },
  };
  return {
    locale: "en",
    merchant: "test",
    generatedAt: "2031-03-11T00:00:00.000Z",
    generatedBy: "finance@test.local",
    issued: null,
    summary,
    lines: async function* () {
      yield lines;
    },
  };
}

/** RFC 4180 records: quoted cells may hold commas, quotes ("") and line breaks. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let cells: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"' && cell === "") quoted = true;
    else if (ch === ",") {
      cells.push(cell);
      cell = "";
    } else if (ch === "\r" && text[i + 1] === "\n") {
      cells.push(cell);
      records.push(cells);
      cells = [];
      cell = "";
      i++;
    } else cell += ch;
  }
  if (cell !== "" || cells.length > 0) records.push([...cells, cell]);
  return records;
}

describe("PDF posting times", () => {
  it("a posting at 21:30 UTC on 1 March reads 2 March 00:30 on a Moscow statement", async () => {
    const doc = documentOf([line({ at: "2031-03-01T21:30:00.000Z" })], "Europe/Moscow");
    const text = await pdfText(await renderStatement(doc, renderers.pdf));
    expect(text).toContain("2031-03-02 00:30:00");
    expect(text).not.toContain("2031-03-01 21:30");
  });

  it("the same instant on a UTC statement reads 21:30 UTC, a New York one 16:30 (winter)", async () => {
    const at = "2031-03-01T21:30:00.000Z";
    const utc = await pdfText(await renderStatement(documentOf([line({ at })], "UTC"), renderers.pdf));
    expect(utc).toContain("2031-03-01 21:30:00");
    const ny = await pdfText(
      await renderStatement(documentOf([line({ at })], "America/New_York"), renderers.pdf),
    );
    expect(ny).toContain("2031-03-01 16:30:00");
  });
});

describe("CSV text cells", () => {
  const hostile = '=HYPERLINK("http://x","y")';
  const lines = [
    line({
      currencyPayment: hostile,
      typeOperation: "+cmd|' /C calc'!A0",
      status: "@SUM(1+1)",
      idTransactionMerchant: "-2+3",
      paymentMethod: "a,b\r\nc",
    }),
  ];

  it("a formula in the payment currency, type or status comes out as quoted text in its own column", async () => {
    const csv = (await renderStatement(documentOf(lines, "UTC"), renderers.csv)).toString("utf8");
    const records = parseCsv(csv.replace(/^\uFEFF/, ""));
    const header = records.find((r) => r[0] === "Date and time")!;
    expect(header).toBeDefined();
    const row = records[records.indexOf(header) + 1]!;
    expect(row).toHaveLength(header.length);
    const cell = (title: string) => row[header.indexOf(title)];
    expect(cell("Payment currency")).toBe(`'${hostile}`);
    expect(cell("Type")).toBe("'+cmd|' /C calc'!A0");
    expect(cell("Status")).toBe("'@SUM(1+1)");
    expect(cell("idTransactionMerchant")).toBe("'-2+3");
    expect(cell("Method")).toBe("a,b\r\nc");
    // Amounts stay numbers, a debit's minus sign included.
    expect(cell("Amount")).toBe("100.0000");
    // No cell of the file starts a formula.
    for (const r of records) for (const c of r) expect(c).not.toMatch(/^[=+@]/);
  });

  it("a debit keeps its minus sign: numbers Paydesk formats are not escaped", async () => {
    const debit = line({
      kind: "payOutDebit",
      amount: "-20.0000",
      balance: "-20.0000",
      holdDelta: "-1.5000",
    });
    const csv = (await renderStatement(documentOf([debit], "UTC"), renderers.csv)).toString("utf8");
    expect(csv).toContain(",-20.0000,-1.5000,-20.0000,");
  });

  it("the summary's figures are numbers too: a negative one keeps its minus sign, unquoted", async () => {
    const doc = documentOf([line({})], "UTC");
    doc.summary.totals.commissions = "-3.0000";
    doc.summary.opening.available = "-0.5000";
    const csv = (await renderStatement(doc, renderers.csv)).toString("utf8");
    expect(csv).toContain("\r\nCommissions,-3.0000\r\n");
    expect(csv).toContain("\r\nOpening balance,-0.5000\r\n");
  });

  it("XLSX writes the same values as text cells, never as formulas", async () => {
    const bytes = await renderStatement(documentOf(lines, "UTC"), renderers.xlsx);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(
      bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer,
    );
    const row = wb.getWorksheet("Postings")!.getRow(2);
    const currency = row.getCell(12);
    expect(currency.type).toBe(ExcelJS.ValueType.String);
    expect(currency.value).toBe(hostile);
    for (let i = 1; i <= 17; i++) expect(row.getCell(i).type).not.toBe(ExcelJS.ValueType.Formula);
  });
});
