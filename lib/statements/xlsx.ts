import { once } from "node:events";
import type { Writable } from "node:stream";
import ExcelJS from "exceljs";
import { Decimal } from "@/lib/money/decimal";
import { assertOpen, finished } from "@/lib/statements/closed";
import type { StatementDocument } from "@/lib/statements/document";
import { statementHeading, statementLabels, summaryFigures } from "@/lib/statements/labels";
import { addRow, amountCell } from "@/lib/statements/xlsx-cells";

// Amounts are exact decimal strings up to here and become numbers (doubles) only as cell values, shown
// with four decimals, or text where a number would not show them whole (lib/statements/xlsx-cells.ts).
const MONEY = "#,##0.0000";
const RATE = "0.00######";
export const MAX_BACKLOG_BYTES = 2 ** 20;

/**
 * exceljs writes committed rows into the zip's compressor without waiting for it, so a fast producer
 * piles uncompressed XML up in memory (measured by the statements bench in a fresh process, 100,000
 * postings: +48 to +72 MB without waiting, +14 to +28 MB with it). Between chunks we wait while the stream
 * behind the worksheet (its pipe, not a public API: tests/unit/statements/xlsx-backpressure.test.ts
 * holds exceljs to it) holds more than MAX_BACKLOG_BYTES.
 */
export function worksheetBacklog(sheet: ExcelJS.Worksheet): { bytes: number; pipe: Writable } | null {
  type State = { length: number };
  type Pipe = Writable & { _writableState?: State; _readableState?: State };
  const stream = (sheet as unknown as { stream?: { pipes?: Pipe[] } }).stream;
  const pipe = stream?.pipes?.[0];
  if (!pipe) return null;
  return { bytes: (pipe._writableState?.length ?? 0) + (pipe._readableState?.length ?? 0), pipe };
}

export async function compressorDrained(sheet: ExcelJS.Worksheet): Promise<void> {
  for (let b = worksheetBacklog(sheet); b && b.bytes > MAX_BACKLOG_BYTES; b = worksheetBacklog(sheet)) {
    await Promise.race([once(b.pipe, "drain"), new Promise((resolve) => setTimeout(resolve, 20))]);
  }
}

/**
 * XLSX through exceljs's streaming WorkbookWriter: rows are committed as they are written, so memory
 * stays flat however many postings there are. Sheets: summary, postings (frozen header, totals row),
 * per day, counts.
 */
export async function writeStatementXlsx(doc: StatementDocument, out: Writable): Promise<void> {
  const s = doc.summary;
  const L = statementLabels(doc.locale);
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: out,
    useStyles: true,
    useSharedStrings: false,
  });
  wb.creator = "Paydesk";
  wb.created = new Date(doc.generatedAt);

  const summary = wb.addWorksheet(L.sheets.summary);
  summary.columns = [{ width: 46 }, { width: 40 }];
  const text = statementHeading(doc, L);
  if (doc.issued)
    text.push(
      [L.issuedAt, doc.issued.at],
      [L.issuedBy, doc.issued.by],
      [L.contentHash, doc.issued.contentHash],
    );
  for (const row of text) summary.addRow(row).commit();
  const money: [string, string][] = [...summaryFigures(s, L), [L.check, s.check.openingPlusMovements]];
  for (const [label, value] of money) {
    const row = addRow(summary, [label, amountCell(value)]);
    row.getCell(2).numFmt = MONEY;
    row.commit();
  }
  summary.addRow([L.check, s.check.ok ? L.checkOk : L.checkFailed]).commit();
  summary.commit();

  const c = L.columns;
  const postings = wb.addWorksheet(L.sheets.postings, { views: [{ state: "frozen", ySplit: 1 }] });
  postings.columns = [
    { header: c.at, width: 25 },
    { header: c.kind, width: 30 },
    { header: c.amount, width: 16, style: { numFmt: MONEY } },
    { header: c.hold, width: 16, style: { numFmt: MONEY } },
    { header: c.balance, width: 18, style: { numFmt: MONEY } },
    { header: c.operationId, width: 38 },
    { header: c.idTransactionMerchant, width: 26 },
    { header: c.type, width: 8 },
    { header: c.status, width: 11 },
    { header: c.method, width: 14 },
    { header: c.amountPayment, width: 18, style: { numFmt: MONEY } },
    { header: c.currencyPayment, width: 9 },
    { header: c.rate, width: 12, style: { numFmt: RATE } },
    { header: c.counterparty, width: 28 },
    { header: c.bank, width: 20 },
    { header: c.reference, width: 20 },
    { header: c.note, width: 30 },
  ];
  postings.getRow(1).font = { bold: true };
  postings.getRow(1).commit();
  let amount = new Decimal(0);
  let hold = new Decimal(0);
  // A client that goes away closes `out`: that ends the rendering too (see lib/statements/closed.ts).
  const outDone = finished(out);
  for await (const chunk of doc.lines()) {
    assertOpen(out);
    for (const r of chunk) {
      amount = amount.plus(r.amount);
      hold = hold.plus(r.holdDelta);
      addRow(postings, [
        r.at,
        L.kinds[r.kind],
        amountCell(r.amount),
        amountCell(r.holdDelta),
        amountCell(r.balance),
        r.key,
        r.idTransactionMerchant,
        r.typeOperation,
        r.status,
        r.paymentMethod,
        amountCell(r.amountPayment),
        r.currencyPayment,
        amountCell(r.exchangeRate),
        r.counterparty,
        r.bankName,
        r.reference ?? (r.movementKind ? (L.movementKinds[r.movementKind] ?? null) : null),
        r.note,
      ]).commit();
    }
    await compressorDrained(postings);
  }
  const totals = addRow(postings, [
    L.totals,
    null,
    amountCell(amount.toFixed(4)),
    amountCell(hold.toFixed(4)),
    amountCell(s.closing.available),
  ]);
  totals.font = { bold: true };
  totals.commit();
  postings.commit();

  const days = wb.addWorksheet(L.sheets.days, { views: [{ state: "frozen", ySplit: 1 }] });
  days.columns = [
    { header: c.day, width: 12 },
    { header: L.credits, width: 18, style: { numFmt: MONEY } },
    { header: L.debits, width: 18, style: { numFmt: MONEY } },
    { header: L.commissions, width: 18, style: { numFmt: MONEY } },
    { header: L.holds, width: 18, style: { numFmt: MONEY } },
    { header: L.outside, width: 18, style: { numFmt: MONEY } },
    { header: c.closing, width: 18, style: { numFmt: MONEY } },
  ];
  days.getRow(1).font = { bold: true };
  for (const d of s.days) {
    addRow(days, [
      d.day,
      amountCell(d.credits),
      amountCell(d.debits),
      amountCell(d.commissions),
      amountCell(d.holds),
      amountCell(d.outside),
      amountCell(d.closing),
    ]).commit();
  }
  const dayTotals = addRow(days, [
    L.totals,
    amountCell(s.totals.credits),
    amountCell(s.totals.debits),
    amountCell(s.totals.commissions),
    amountCell(s.totals.holds),
    amountCell(s.totals.outside),
    amountCell(s.closing.available),
  ]);
  dayTotals.font = { bold: true };
  dayTotals.commit();
  days.commit();

  const counts = wb.addWorksheet(L.sheets.counts);
  counts.columns = [
    { header: c.type, width: 10 },
    { header: c.status, width: 12 },
    { header: c.method, width: 16 },
    { header: c.operations, width: 12 },
  ];
  for (const r of s.counts)
    counts.addRow([r.typeOperation, r.status, r.paymentMethod, r.operations]).commit();
  counts.commit();
  await Promise.race([wb.commit(), outDone.then(() => new Promise<never>(() => undefined))]);
}
