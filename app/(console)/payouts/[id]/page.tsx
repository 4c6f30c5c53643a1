import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { Money } from "@/components/money/money";
import { StatusBadge } from "@/components/operations/status-badge";
import { DecisionForm } from "@/components/payouts/decision-form";
import { PayoutStatusBadge } from "@/components/payouts/payout-status-badge";
import { PlatformErrorNotice } from "@/components/payouts/platform-error";
import { RequestButtons } from "@/components/payouts/request-buttons";
import { can } from "@/lib/auth/permissions";
import { requirePagePermission } from "@/lib/auth/session";
import { getPayoutDetail } from "@/lib/payouts/queries";
import { formatInZone } from "@/lib/time/zone";

export const metadata: Metadata = { title: "Pay-out" };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const when = (iso: string | null) => (iso ? `${formatInZone(new Date(iso), "UTC")} UTC` : "—");

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="grid grid-cols-1 gap-1 py-1 sm:grid-cols-3">
      <dt className="text-sm text-zinc-600 dark:text-zinc-400">{label}</dt>
      <dd className="break-all text-sm sm:col-span-2">{children}</dd>
    </div>
  );
}

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
  if (!UUID.test(id)) notFound();
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
            <Row label="Operation">
              <Link
                href={`/operations/${p.operationId}`}
                className="font-mono text-indigo-700 underline dark:text-indigo-300"
                data-testid="payout-operation-link"
              >
                {p.operationId}
              </Link>
            </Row>
            <Row label="Platform status">
              {p.operationStatus ? <StatusBadge status={p.operationStatus} /> : "—"}
            </Row>
            <Row label="Sent">{when(p.submittedAt)}</Row>
            <Row label="traceID of the creation">
              <span className="font-mono">{p.lastTraceID ?? "—"}</span>
            </Row>
          </dl>
        ) : (
          <p className="text-sm text-zinc-600 dark:text-zinc-400">
            {p.status === "failed_to_submit"
              ? "The platform refused this pay-out; no operation exists. Create a new request after fixing the cause."
              : p.status === "submitting"
                ? "Being sent; the outcome is checked automatically."
                : "Not sent to the platform yet."}
          </p>
        )}
      </Section>

      <Section title="Request">
        <dl>
          <Row label="Payment method">{p.paymentMethod}</Row>
          <Row label="Bank">{p.bankName}</Row>
          <Row label="Recipient number">
            <span className="font-mono" data-testid="payout-recipient">
              {p.recipientNumber}
            </span>
          </Row>
          <Row label="Recipient name">{p.recipientName || "(empty)"}</Row>
          <Row label="Client id">{p.clientID}</Row>
          <Row label="Client IP">{p.clientIP}</Row>
          <Row label="Client registered">{when(p.clientDateCreated)}</Row>
          <Row label="Webhook">{p.webhookUrl ?? "merchant default"}</Row>
          <Row label="Maker">{p.makerEmail}</Row>
          <Row label="Created">{when(p.createdAt)}</Row>
          {p.overrideReason && <Row label="Duplicate override (admin)">{p.overrideReason}</Row>}
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
