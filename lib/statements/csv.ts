import type { Writable } from "node:stream";
import { csvCell, csvLine } from "@/lib/csv/encode";
import { statementHeading, statementLabels, summaryFigures } from "@/lib/statements/labels";
import type { StatementDocument } from "@/lib/statements/document";
import { Decimal } from "@/lib/money/decimal";

const DECIMAL = /^-?\d+(\.\d+)?$/;

function write(out: Writable, text: string): Promise<void> {
  if (out.destroyed) return Promise.reject(new Error("the download was closed"));
  if (out.write(text)) return Promise.resolve();
  return new Promise<void>((resolve, reject) => {
    const closed = () => reject(new Error("the download was closed"));
    out.once("close", closed);
    out.once("drain", () => {
      out.off("close", closed);
      resolve();
    });
  });
}

/** CSV: the summary as label/value lines, a blank line, then every posting and a totals line. */
export async function writeStatementCsv(doc: StatementDocument, out: Writable): Promise<void> {
  const s = doc.summary;
  const L = statementLabels(doc.locale);
  // Every cell is escaped as text (the platform's fields are free text: a currency may read
  // `=HYPERLINK(…)`) except a plain decimal number, written as is so that a debit keeps its minus sign.
  const t = (v: string) => csvCell(v, { text: true });
  const n = (v: string) => (DECIMAL.test(v) || v === "" ? v : t(v));
  const summary: string[][] = [
    ...statementHeading(doc, L).map(([label, value]) => [t(label), t(value)]),
    ...summaryFigures(s, L).map(([label, value]) => [t(label), n(value)]),
    [
      t(L.check),
      t(`${s.check.openingPlusMovements} = ${s.check.closing}: ${s.check.ok ? L.checkOk : L.checkFailed}`),
    ],
  ];
  await write(out, "\uFEFF");
  for (const cells of summary) await write(out, csvLine(cells));
  await write(out, "\r\n");
  const c = L.columns;
  await write(
    out,
    csvLine(
      [
        c.at,
        c.kind,
        c.amount,
        c.hold,
        c.balance,
        c.operationId,
        c.idTransactionMerchant,
        c.type,
        c.status,
        c.method,
        c.amountPayment,
        c.currencyPayment,
        c.rate,
        c.counterparty,
        c.bank,
        c.reference,
        c.note,
      ].map(t),
    ),
  );
  let amount = new Decimal(0);
  let hold = new Decimal(0);
  for await (const chunk of doc.lines()) {
    let text = "";
    for (const r of chunk) {
      amount = amount.plus(r.amount);
      hold = hold.plus(r.holdDelta);
      text += csvLine([
        t(r.at),
        t(L.kinds[r.kind]),
        n(r.amount),
        new Decimal(r.holdDelta).toFixed(4),
        n(r.balance),
        t(r.key),
        t(r.idTransactionMerchant ?? ""),
        t(r.typeOperation ?? ""),
        t(r.status ?? ""),
        t(r.paymentMethod ?? ""),
        n(r.amountPayment ?? ""),
        t(r.currencyPayment ?? ""),
        n(r.exchangeRate ?? ""),
        t(r.counterparty ?? ""),
        t(r.bankName ?? ""),
        t(r.reference ?? (r.movementKind ? (L.movementKinds[r.movementKind] ?? "") : "")),
        t(r.note ?? ""),
      ]);
    }
    await write(out, text);
  }
  await write(out, csvLine([t(L.totals), "", amount.toFixed(4), hold.toFixed(4), n(s.closing.available)]));
}
