import Link from "next/link";
import { useLocale, useTimeZone, useTranslations } from "next-intl";
import { Money } from "@/components/money/money";
import { StatusBadge } from "@/components/operations/status-badge";
import { PaymentMethodName } from "@/components/payouts/payment-method";
import { PayoutStatusBadge } from "@/components/payouts/payout-status-badge";
import { RevealNumber } from "@/components/recipients/reveal-number";
import type { Locale } from "@/lib/i18n/locales";
import type { PayoutListItem } from "@/lib/payouts/queries";
import { PAYOUT_STATUSES, type PayoutRequestStatus } from "@/lib/payouts/state";
import { formatDateTime } from "@/lib/time/zone";
import { ScrollArea } from "@/components/ui/scroll-area";

/** The pay-out requests, newest first, filtered by status; numbers always masked (reveal is audited). */
export function PayoutList({
  rows,
  status,
  canCreate,
  canReveal,
}: {
  rows: PayoutListItem[];
  status: PayoutRequestStatus | null;
  canCreate: boolean;
  canReveal: boolean;
}) {
  const t = useTranslations("payouts");
  const locale = useLocale() as Locale;
  const timeZone = useTimeZone() ?? "UTC";
  return (
    <section className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-2xl font-semibold">{t("title")}</h1>
        {canCreate && (
          <Link
            href="/payouts/new"
            className="rounded-md bg-indigo-600 px-3 py-2 text-sm font-medium text-white hover:bg-indigo-500"
          >
            {t("newPayout")}
          </Link>
        )}
      </div>
      <nav aria-label={t("list.statusFilter")} className="flex flex-wrap gap-2 text-sm">
        {[null, ...PAYOUT_STATUSES.filter((s) => s !== "draft")].map((s) => (
          <Link
            key={s ?? "all"}
            href={s ? `/payouts?status=${s}` : "/payouts"}
            aria-current={s === status ? "page" : undefined}
            className="rounded-md border border-zinc-300 px-3 py-1 aria-[current=page]:border-indigo-500 aria-[current=page]:font-medium dark:border-zinc-700"
          >
            {s ? t(`statuses.${s}`) : t("list.all")}
          </Link>
        ))}
      </nav>
      {rows.length === 0 ? (
        <p className="text-sm text-zinc-500">
          {status ? t("list.emptyWithStatus", { status: t(`statuses.${status}`) }) : t("list.empty")}
        </p>
      ) : (
        <ScrollArea
          label={t("title")}
          className="overflow-x-auto rounded-lg border border-zinc-200 dark:border-zinc-800"
        >
          <table className="min-w-full text-sm" data-testid="payouts-table">
            <thead className="bg-zinc-50 text-left dark:bg-zinc-900">
              <tr>
                <th className="px-3 py-2 font-medium">{t("list.created", { zone: timeZone })}</th>
                <th className="px-3 py-2 font-medium">{t("fields.merchantId")}</th>
                <th className="px-3 py-2 font-medium">{t("list.status")}</th>
                <th className="px-3 py-2 text-right font-medium">{t("fields.amount")}</th>
                <th className="px-3 py-2 font-medium">{t("list.method")}</th>
                <th className="px-3 py-2 font-medium">{t("list.recipient")}</th>
                <th className="px-3 py-2 font-medium">{t("list.approvals")}</th>
                <th className="px-3 py-2 font-medium">{t("list.platform")}</th>
                <th className="px-3 py-2 font-medium">{t("fields.maker")}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr
                  key={r.id}
                  className="border-t border-zinc-200 dark:border-zinc-800"
                  data-testid="payout-row"
                >
                  <td className="whitespace-nowrap px-3 py-2">
                    {formatDateTime(new Date(r.createdAt), timeZone, locale)}
                  </td>
                  <td className="px-3 py-2 font-mono text-xs">
                    <Link
                      href={`/payouts/${r.id}`}
                      className="text-indigo-700 underline dark:text-indigo-300"
                    >
                      {r.idTransactionMerchant}
                    </Link>
                  </td>
                  <td className="px-3 py-2">
                    <PayoutStatusBadge status={r.status} />
                  </td>
                  <td className="px-3 py-2 text-right">
                    <Money amount={r.amount} currency={r.currency} />
                  </td>
                  <td className="px-3 py-2">
                    <PaymentMethodName method={r.paymentMethod} />
                  </td>
                  <td className="px-3 py-2">
                    <RevealNumber
                      target={{ type: "payoutRequest", id: r.id }}
                      masked={r.recipientMasked}
                      canReveal={canReveal}
                    />
                    <span className="block text-xs text-zinc-500">{r.bankName}</span>
                  </td>
                  <td className="px-3 py-2">
                    {r.approvals}/{r.requiredApprovals}
                  </td>
                  <td className="px-3 py-2">
                    {r.operationStatus ? <StatusBadge status={r.operationStatus} /> : "—"}
                  </td>
                  <td className="px-3 py-2 text-xs">{r.makerEmail}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollArea>
      )}
    </section>
  );
}
