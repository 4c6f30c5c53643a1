import Link from "next/link";
import { useLocale, useTranslations } from "next-intl";
import type { StatementPosting } from "@/lib/ledger/postings";
import { exactAmount } from "@/lib/statements/exact-amount";
import { formatDateTime } from "@/lib/time/zone";
import { useCodeWords } from "./code-words";
import { ScrollArea } from "@/components/ui/scroll-area";

/** The statement's lines with the running balance; operations link to their page. Times in the statement's zone. */
export function PostingsTable({
  rows,
  currency,
  timeZone,
}: {
  rows: StatementPosting[];
  currency: string | null;
  timeZone: string;
}) {
  const t = useTranslations("statements");
  const locale = useLocale();
  const words = useCodeWords();
  const n = (v: string) => exactAmount(v, locale);
  if (rows.length === 0) return <p className="text-sm text-zinc-500">{t("noPostings")}</p>;
  const none = "—";
  return (
    <ScrollArea label={t("document.postings")}>
      <table className="min-w-full text-xs" data-testid="statement-postings">
        <thead>
          <tr className="text-left">
            {[
              t("document.columns.at"),
              t("document.columns.kind"),
              `${t("document.columns.amount")} (${currency ?? ""})`,
              t("document.columns.balance"),
              t("document.columns.idTransactionMerchant"),
              t("document.columns.method"),
              t("document.columns.amountPayment"),
              t("document.columns.rate"),
              t("document.columns.counterparty"),
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
              <td className="whitespace-nowrap px-2 py-1 font-mono">
                {formatDateTime(new Date(r.at), timeZone, locale)}
              </td>
              <td className="px-2 py-1">
                {r.kind === "outside" ? (
                  t("document.kinds.outside")
                ) : (
                  <Link href={`/operations/${r.key}`} className="underline">
                    {t(`document.kinds.${r.kind}`)}
                  </Link>
                )}
              </td>
              <td className="px-2 py-1 text-right font-mono">{n(r.amount)}</td>
              <td className="px-2 py-1 text-right font-mono">{n(r.balance)}</td>
              <td className="px-2 py-1 font-mono">{r.idTransactionMerchant ?? none}</td>
              <td className="px-2 py-1">{r.paymentMethod ? words.method(r.paymentMethod) : none}</td>
              <td className="px-2 py-1 text-right font-mono">
                {r.amountPayment ? `${n(r.amountPayment)} ${r.currencyPayment ?? ""}` : none}
              </td>
              <td className="px-2 py-1 text-right font-mono">{r.exchangeRate ? n(r.exchangeRate) : none}</td>
              <td className="px-2 py-1">
                {[
                  r.counterparty,
                  r.bankName,
                  r.movementKind && t.has(`document.movementKinds.${r.movementKind}` as "document.title")
                    ? t(`document.movementKinds.${r.movementKind}` as "document.title")
                    : r.movementKind,
                  r.reference,
                  r.note,
                ]
                  .filter(Boolean)
                  .join(" · ") || none}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollArea>
  );
}
