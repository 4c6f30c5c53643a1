import Link from "next/link";
import type { StatementPosting } from "@/lib/ledger/postings";
import { statementLabels as L } from "@/lib/statements/labels";

/** The statement's lines with the running balance; operations link to their page. */
export function PostingsTable({ rows, currency }: { rows: StatementPosting[]; currency: string | null }) {
  if (rows.length === 0) return <p className="text-sm text-zinc-500">No postings in this period.</p>;
  const c = L.columns;
  return (
    <div className="overflow-x-auto">
      <table className="min-w-full text-xs" data-testid="statement-postings">
        <thead>
          <tr className="text-left">
            {[
              c.at,
              c.kind,
              `${c.amount} (${currency ?? ""})`,
              c.balance,
              c.idTransactionMerchant,
              c.method,
              c.amountPayment,
              c.rate,
              c.counterparty,
            ].map((h) => (
              <th key={h} className="px-2 py-1">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={`${r.key}-${r.kind}`} className="border-t border-zinc-200 dark:border-zinc-800">
              <td className="px-2 py-1 font-mono">{r.at}</td>
              <td className="px-2 py-1">
                {r.kind === "outside" ? (
                  L.kinds.outside
                ) : (
                  <Link href={`/operations/${r.key}`} className="underline">
                    {L.kinds[r.kind]}
                  </Link>
                )}
              </td>
              <td className="px-2 py-1 text-right font-mono">{r.amount}</td>
              <td className="px-2 py-1 text-right font-mono">{r.balance}</td>
              <td className="px-2 py-1 font-mono">{r.idTransactionMerchant ?? L.none}</td>
              <td className="px-2 py-1">{r.paymentMethod ?? L.none}</td>
              <td className="px-2 py-1 text-right font-mono">
                {r.amountPayment ? `${r.amountPayment} ${r.currencyPayment ?? ""}` : L.none}
              </td>
              <td className="px-2 py-1 text-right font-mono">{r.exchangeRate ?? L.none}</td>
              <td className="px-2 py-1">
                {[
                  r.counterparty,
                  r.bankName,
                  r.movementKind && L.movementKinds[r.movementKind],
                  r.reference,
                  r.note,
                ]
                  .filter(Boolean)
                  .join(" · ") || L.none}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
