import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { Money } from "@/components/money/money";
import { StatusBadge } from "@/components/operations/status-badge";
import { DecisionForm } from "@/components/payouts/decision-form";
import { PayoutSending } from "@/components/payouts/payout-sending";
import { PayoutStatusBadge } from "@/components/payouts/payout-status-badge";
import { PlatformErrorNotice } from "@/components/payouts/platform-error";
import { RequestButtons } from "@/components/payouts/request-buttons";
import { RevealNumber } from "@/components/recipients/reveal-number";
import { can } from "@/lib/auth/permissions";
import { requirePagePermission } from "@/lib/auth/session";
import { getPayoutDetail } from "@/lib/payouts/queries";
import { formatInZone } from "@/lib/time/zone";
import { isUuid } from "@/lib/uuid";
import { DetailRow } from "@/components/ui/detail-row";

export const metadata: Metadata = { title: "Pay-out" };

const when = (iso: string | null) => (iso ? `${formatInZone(new Date(iso), "UTC")} UTC` : "—");

function Section({ title, children, testId }: { title: string; children: React.ReactNode; testId?: string }) {
  return (
    <section
      data-testid={testId}
      className="space-y-2 rounded-lg border border-zinc-200 bg-white p-4 dark:border-zinc-800 dark:bg-zinc-900"
    >
      <h2 className="text-lg font-semibold">{title}</h2>
      {children}
    </section>
  );
}

export default async function PayoutPage({ params }: { params: Promise<{ id: string }> }) {
  const user = await requirePagePermission("payouts.read");
  const { id } = await params;
  if (!isUuid(id)) notFound();
  const p = await getPayoutDetail(id.toLowerCase(), user);
  if (!p) notFound();

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="space-y-1">
          <Link href="/payouts" className="text-sm text-indigo-700 underline dark:text-indigo-300">
            ← Pay-outs
          </Link>
          <h1 className="flex flex-wrap items-center gap-2 text-2xl font-semibold">
            Pay-out <Money amount={p.amount} currency={p.currency} /> <PayoutStatusBadge status={p.status} />
          </h1>
          <p className="text-sm">
            Merchant id (idTransactionMerchant):{" "}
            <span className="font-mono" data-testid="payout-merchant-id">
              {p.idTransactionMerchant}
            </span>
          </p>
        </div>
        <RequestButtons payoutId={p.id} canCancel={p.can.cancel} canSubmit={p.can.submit} />
      </div>

      <PayoutSending payoutId={p.id} status={p.status} sending={p.sending} />
      {p.error && <PlatformErrorNotice error={p.error} />}
      {p.note && (
        <p
          role="status"
          className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-200"
        >
          {p.note}
          {p.lastTraceID && ` traceID ${p.lastTraceID}`}
        </p>
      )}

      <Section title="Platform" testId="payout-platform">
        {p.operationId ? (
          <dl>
            <DetailRow label="Operation">
              <Link
                href={`/operations/${p.operationId}`}
                className="font-mono text-indigo-700 underline dark:text-indigo-300"
                data-testid="payout-operation-link"
              >
                {p.operationId}
              </Link>
            </DetailRow>
            <DetailRow label="Platform status">
              {p.operationStatus ? <StatusBadge status={p.operationStatus} /> : "—"}
            </DetailRow>
            <DetailRow label="Sent">{when(p.submittedAt)}</DetailRow>
            <DetailRow label="traceID of the creation">
              <span className="font-mono">{p.lastTraceID ?? "—"}</span>
            </DetailRow>
          </dl>
        ) : (
          <p className="text-sm text-zinc-600 dark:text-zinc-400">
            {p.status === "failed_to_submit"
              ? "The platform refused this pay-out; no operation exists. Create a new request after fixing the cause."
              : p.status === "submitting"
                ? "Being sent; the outcome is checked automatically."
                : p.sending
                  ? "Queued for sending; the worker sends it in a moment."
                  : "Not sent to the platform yet."}
          </p>
        )}
      </Section>

      <Section title="Request">
        <dl>
          <DetailRow label="Payment method">{p.paymentMethod}</DetailRow>
          <DetailRow label="Bank">{p.bankName}</DetailRow>
          <DetailRow label="Recipient number">
            <RevealNumber
              target={{ type: "payoutRequest", id: p.id }}
              masked={p.recipientMasked}
              canReveal={can(user.role, "recipients.reveal")}
            />
          </DetailRow>
          <DetailRow label="Recipient name">{p.recipientName || "(empty)"}</DetailRow>
          <DetailRow label="Client id">{p.clientID}</DetailRow>
          <DetailRow label="Client IP">{p.clientIP}</DetailRow>
          <DetailRow label="Client registered">{when(p.clientDateCreated)}</DetailRow>
          <DetailRow label="Webhook">{p.webhookUrl ?? "merchant default"}</DetailRow>
          <DetailRow label="Maker">{p.makerEmail}</DetailRow>
          <DetailRow label="Created">{when(p.createdAt)}</DetailRow>
          {p.overrideReason && <DetailRow label="Duplicate override (admin)">{p.overrideReason}</DetailRow>}
        </dl>
      </Section>

      <Section title={`Approvals (${p.approvals} of ${p.requiredApprovals})`} testId="payout-approvals">
        {p.decisions.length === 0 ? (
          <p className="text-sm text-zinc-600 dark:text-zinc-400">
            {p.requiredApprovals === 0 ? "Approved automatically (below the threshold)." : "No decision yet."}
          </p>
        ) : (
          <ul className="space-y-2">
            {p.decisions.map((d) => (
              <li key={`${d.approverEmail}-${d.at}`} className="text-sm" data-testid="payout-decision">
                <strong>{d.decision === "approve" ? "Approved" : "Rejected"}</strong> by {d.approverEmail} on{" "}
                {when(d.at)}: “{d.comment}”
              </li>
            ))}
          </ul>
        )}
        {can(user.role, "payouts.approve") && <DecisionForm payoutId={p.id} canDecide={p.can.approve} />}
        {p.approveBlockedReason && (
          <p className="text-sm text-zinc-600 dark:text-zinc-400">{p.approveBlockedReason}</p>
        )}
      </Section>
    </div>
  );
}
