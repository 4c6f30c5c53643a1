import type { Metadata } from "next";
import Link from "next/link";
import { Money } from "@/components/money/money";
import { StatusBadge } from "@/components/operations/status-badge";
import { PayoutStatusBadge } from "@/components/payouts/payout-status-badge";
import { RevealNumber } from "@/components/recipients/reveal-number";
import { can } from "@/lib/auth/permissions";
import { requirePagePermission } from "@/lib/auth/session";
import { listPayouts, parseStatusFilter } from "@/lib/payouts/queries";
import { PAYOUT_STATUSES, STATUS_LABELS } from "@/lib/payouts/state";
import { formatInZone } from "@/lib/time/zone";

export const metadata: Metadata = { title: "Pay-outs" };

export default async function PayoutsPage({
  searchParams,
}: {
  searchParams: Promise<{ status?: string | string[] }>;
}) {
  const user = await requirePagePermission("payouts.read");
  const { status: statusParam } = await searchParams;
  const status = parseStatusFilter(statusParam);
  const rows = await listPayouts({ status });
  const canReveal = can(user.role, "recipients.reveal");

  return (
    <section className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-2xl font-semibold">Pay-outs</h1>
        {can(user.role, "payouts.create") && (
          <Link
            href="/payouts/new"
            className="rounded-md bg-indigo-600 px-3 py-2 text-sm font-medium text-white hover:bg-indigo-500"
          >
            New pay-out
          </Link>
        )}
      </div>
      <nav aria-label="Status" className="flex flex-wrap gap-2 text-sm">
        {[null, ...PAYOUT_STATUSES.filter((s) => s !== "draft")].map((s) => (
          <Link
            key={s ?? "all"}
            href={s ? `/payouts?status=${s}` : "/payouts"}
            aria-current={s === status ? "page" : undefined}
            className="rounded-md border border-zinc-300 px-3 py-1 aria-[current=page]:border-indigo-500 aria-[current=page]:font-medium dark:border-zinc-700"
          >
            {s ? STATUS_LABELS[s] : "all"}
          </Link>
        ))}
      </nav>
      {rows.length === 0 ? (
        <p className="text-sm text-zinc-500">
          No pay-out requests{status ? ` ${STATUS_LABELS[status]}` : ""}.
        </p>
      ) : (
        <div className="overflow-x-auto rounded-lg border border-zinc-200 dark:border-zinc-800">
          <table className="min-w-full text-sm" data-testid="payouts-table">
            <thead className="bg-zinc-50 text-left dark:bg-zinc-900">
              <tr>
                <th className="px-3 py-2 font-medium">Created (UTC)</th>
                <th className="px-3 py-2 font-medium">Merchant id</th>
                <th className="px-3 py-2 font-medium">Status</th>
                <th className="px-3 py-2 text-right font-medium">Amount</th>
                <th className="px-3 py-2 font-medium">Method</th>
                <th className="px-3 py-2 font-medium">Recipient</th>
                <th className="px-3 py-2 font-medium">Approvals</th>
                <th className="px-3 py-2 font-medium">Platform</th>
                <th className="px-3 py-2 font-medium">Maker</th>
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
                    {formatInZone(new Date(r.createdAt), "UTC")}
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
                  <td className="px-3 py-2">{r.paymentMethod}</td>
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
        </div>
      )}
    </section>
  );
}
