import path from "node:path";
import type { Writable } from "node:stream";
import PDFDocument from "pdfkit";
import type { StatementPosting } from "@/lib/ledger/postings";
import { assertOpen, finished } from "@/lib/statements/closed";
import type { StatementDocument } from "@/lib/statements/document";
import { exactAmount } from "@/lib/statements/exact-amount";
import { clientCaughtUp, decoratePages, forgetLayouts } from "@/lib/statements/pdf-pages";
import { statementLabels, summaryFigures, type StatementLabels } from "@/lib/statements/labels";
import { formatInZone } from "@/lib/time/zone";

// DejaVu Sans covers Cyrillic (recipient and bank names); shipped by the dejavu-fonts-ttf package.
const FONT_DIR = path.join(process.cwd(), "node_modules", "dejavu-fonts-ttf", "ttf");
const FONT = path.join(FONT_DIR, "DejaVuSans.ttf");
const FONT_BOLD = path.join(FONT_DIR, "DejaVuSans-Bold.ttf");

const MARGIN = 36;
type Font = "body" | "bold";
type Column = { key: string; title: string; width: number; align?: "right" };

const columnsOf = (c: StatementLabels["columns"]): Column[] => [
  { key: "at", title: c.at, width: 92 },
  { key: "kind", title: c.kind, width: 96 },
  { key: "amount", title: c.amount, width: 62, align: "right" },
  { key: "balance", title: c.balance, width: 66, align: "right" },
  { key: "key", title: c.operationId, width: 128 },
  { key: "idTransactionMerchant", title: c.idTransactionMerchant, width: 80 },
  { key: "paymentMethod", title: c.method, width: 48 },
  { key: "amountPayment", title: c.amountPayment, width: 70, align: "right" },
  { key: "exchangeRate", title: c.rate, width: 40, align: "right" },
  { key: "counterparty", title: c.counterparty, width: 88 },
];

/**
 * One posting's cells. Its time is on the clock of the statement's zone (`tz`, named in the header), the
 * day the per-day table counts it in: 21:30 UTC is 00:30 the next day on a Moscow statement.
 */
function cells(
  r: StatementPosting,
  tz: string,
  L: StatementLabels,
  n: (v: string) => string,
): Record<string, string> {
  return {
    at: formatInZone(new Date(r.at), tz),
    kind: L.kinds[r.kind],
    amount: n(r.amount),
    balance: n(r.balance),
    key: r.key,
    idTransactionMerchant: r.idTransactionMerchant ?? "",
    paymentMethod: r.paymentMethod ?? "",
    amountPayment: r.amountPayment ? `${n(r.amountPayment)} ${r.currencyPayment ?? ""}` : "",
    exchangeRate: r.exchangeRate ? n(r.exchangeRate) : "",
    counterparty: [r.counterparty, r.bankName, r.reference, r.note].filter(Boolean).join(" · "),
  };
}

/**
 * PDF (A4 landscape): a header with merchant, period, zone, who and when, the summary with its check
 * line, per-day figures and every posting; the running header and "page n" on every page.
 *
 * Pages are not buffered (`bufferPages` holds every page's objects until the end, ~25 KB a posting): each
 * is sent as the next begins, so the number of pages is unknown while they are written.
 */
export async function writeStatementPdf(doc: StatementDocument, out: Writable): Promise<void> {
  const s = doc.summary;
  const L = statementLabels(doc.locale);
  const c = L.columns;
  const columns = columnsOf(c);
  // Amounts as the language writes numbers (decimal comma in Russian), every digit kept.
  const n = (v: string) => exactAmount(v, L.locale);
  const pdf = new PDFDocument({
    size: "A4",
    layout: "landscape",
    margins: { top: MARGIN + 14, bottom: MARGIN + 10, left: MARGIN, right: MARGIN },
    autoFirstPage: false,
    info: {
      Title: `${L.title} ${s.period.from} — ${s.period.to}`,
      Author: "Paydesk",
      CreationDate: new Date(doc.generatedAt),
    },
  });
  // A client that goes away closes `out`: that ends the rendering too (see lib/statements/closed.ts).
  const outDone = finished(out);
  const done = new Promise<void>((resolve, reject) => {
    outDone.then(resolve, reject);
    pdf.on("error", reject);
  });
  done.catch(() => undefined);
  pdf.pipe(out);
  pdf.registerFont("body", FONT);
  pdf.registerFont("bold", FONT_BOLD);
  // The font in use, for the page decoration to put back.
  let style: { font: Font; size: number } = { font: "body", size: 9 };
  const setFont = (font: Font, size = style.size) => {
    style = { font, size };
    return pdf.font(font).fontSize(size);
  };
  pdf.on("pageAdded", () => forgetLayouts(pdf));
  decoratePages(pdf, {
    header: `${L.title} · ${doc.merchant} · ${s.period.from} — ${s.period.to} · ${s.period.tz}`,
    pageLabel: L.page,
    margin: MARGIN,
    font: "body",
    restoreFont: () => pdf.font(style.font).fontSize(style.size),
  });
  pdf.addPage();
  const width = pdf.page.width - 2 * MARGIN;
  const bottom = () => pdf.page.height - MARGIN - 10;

  setFont("bold", 14).text(L.title);
  setFont("body", 9);
  const meta: [string, string][] = [
    [L.merchant, doc.merchant],
    [L.period, `${s.period.from} — ${s.period.to}`],
    [L.timeZone, s.period.tz],
    [L.currency, s.currency ?? L.none],
    [L.generatedAt, doc.generatedAt],
    [L.generatedBy, doc.generatedBy],
    [
      L.basis,
      s.freshness.covered
        ? L.basisCovered(s.freshness.lastCompleteReconciliationAt ?? "")
        : L.basisNotCovered(s.freshness.lastCompleteReconciliationAt),
    ],
  ];
  if (doc.issued)
    meta.push(
      [L.issuedAt, doc.issued.at],
      [L.issuedBy, doc.issued.by],
      [L.contentHash, doc.issued.contentHash],
    );
  for (const [k, v] of meta) pdf.text(`${k}: ${v}`);
  pdf.moveDown(0.5);

  setFont("bold", 11).text(L.summary);
  setFont("body", 9);
  for (const [k, v] of summaryFigures(s, L)) {
    const y = pdf.y;
    pdf.text(k, MARGIN, y, { width: 260 });
    const afterLabel = pdf.y; // a long label (Russian) may take two lines
    pdf.text(`${n(v)} ${s.currency ?? ""}`, MARGIN + 260, y, { width: 140, align: "right" });
    pdf.y = Math.max(afterLabel, pdf.y);
  }
  setFont("bold").text(
    `${L.check}: ${n(s.opening.available)} + ${n(s.totals.movements)} = ${n(s.check.openingPlusMovements)}; ${L.closing} ${n(s.check.closing)} — ${s.check.ok ? L.checkOk : L.checkFailed}`,
    MARGIN,
    pdf.y + 4,
    { width },
  );
  setFont("body").moveDown(0.5);

  setFont("bold", 11).text(L.days, MARGIN);
  setFont("body", 8);
  const dayCols = [c.day, L.credits, L.debits, L.commissions, L.holds, L.outside, c.closing];
  const dayWidth = width / dayCols.length;
  const dayRow = (values: string[], bold = false) => {
    setFont(bold ? "bold" : "body");
    // The heading row wraps its (possibly long, Russian) titles; figures stay on one line.
    const h = bold
      ? Math.max(11, ...values.map((v) => pdf.heightOfString(v, { width: dayWidth - 4 }) + 1))
      : 11;
    if (pdf.y + h + 1 > bottom()) pdf.addPage();
    const y = pdf.y;
    values.forEach((v, i) =>
      pdf.text(v, MARGIN + i * dayWidth, y, {
        width: dayWidth - 4,
        align: i === 0 ? "left" : "right",
        lineBreak: bold,
      }),
    );
    pdf.y = y + h;
  };
  dayRow(dayCols, true);
  for (const d of s.days)
    dayRow([d.day, ...[d.credits, d.debits, d.commissions, d.holds, d.outside, d.closing].map(n)]);
  pdf.moveDown(0.5);

  pdf.addPage();
  setFont("bold", 11).text(L.postings, MARGIN);
  setFont("bold", 6.5);
  const row = (values: Record<string, string>, bold = false) => {
    const heights = columns.map((col) => pdf.heightOfString(values[col.key] ?? "", { width: col.width - 3 }));
    const h = Math.max(9, ...heights) + 2;
    if (pdf.y + h > bottom()) {
      pdf.addPage();
      if (!bold) row(Object.fromEntries(columns.map((col) => [col.key, col.title])), true);
    }
    const y = pdf.y;
    let x = MARGIN;
    setFont(bold ? "bold" : "body");
    for (const col of columns) {
      pdf.text(values[col.key] ?? "", x, y, { width: col.width - 3, align: col.align ?? "left" });
      x += col.width;
    }
    pdf.y = y + h;
  };
  row(Object.fromEntries(columns.map((col) => [col.key, col.title])), true);
  for await (const chunk of doc.lines()) {
    assertOpen(out);
    for (const r of chunk) row(cells(r, s.period.tz, L, n));
    await clientCaughtUp(pdf, out);
  }
  pdf.end();
  await done;
}
