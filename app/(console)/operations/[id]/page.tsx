import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { Money, Rate } from "@/components/money/money";
import { ApiCalls } from "@/components/operations/api-calls";
import { RefreshButton } from "@/components/operations/refresh-button";
import { StatusBadge } from "@/components/operations/status-badge";
import { Timeline } from "@/components/operations/timeline";
import { WebhookDeliveries } from "@/components/operations/webhook-deliveries";
import { RevealNumber } from "@/components/recipients/reveal-number";
import { can } from "@/lib/auth/permissions";
import { requirePagePermission } from "@/lib/auth/session";
import { getOperationDetail } from "@/lib/operations/detail/operation-detail";
import { canonicalTimeZone, formatInZone } from "@/lib/time/zone";
import { isUuid } from "@/lib/uuid";
import { DetailRow } from "@/components/ui/detail-row";

export const metadata: Metadata = { title: "Operation" };

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section className="space-y-2 rounded-lg border border-zinc-200 bg-white p-4 dark:border-zinc-800 dark:bg-zinc-900">
      <h2 className="text-lg font-semibold">{title}</h2>
      {children}
    </section>
  );
}

export default async function OperationPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<{ tz?: string | string[] }>;
}) {
  const user = await requirePagePermission("operations.read");
  const { id } = await params;
  const { tz: tzParam } = await searchParams;
  if (!isUuid(id)) notFound();
  const op = await getOperationDetail(id.toLowerCase());
  if (!op) notFound();
  const tz = (typeof tzParam === "string" && canonicalTimeZone(tzParam)) || "UTC";
  const when = (iso: string | null) => (iso ? `${formatInZone(new Date(iso), tz)} (${tz})` : "—");

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="space-y-1">
          <Link href="/operations" className="text-sm text-indigo-700 underline dark:text-indigo-300">
            ← Operations
          </Link>
          <h1 className="flex flex-wrap items-center gap-2 text-2xl font-semibold">
            {op.typeOperation === "payIn" ? "Pay-in" : "Pay-out"} <StatusBadge status={op.status} />
          </h1>
          <p className="break-all font-mono text-xs text-zinc-500">{op.id}</p>
        </div>
        {can(user.role, "operations.refresh") && <RefreshButton operationId={op.id} />}
      </div>

      <Section title="Amounts">
        <dl>
          <DetailRow label="Amount (payment currency)">
            <Money amount={op.amount} currency={op.currency} />
          </DetailRow>
          <DetailRow label="Commission (payment currency)">
            <Money amount={op.amountComission} currency={op.currency} />
          </DetailRow>
          <DetailRow label="Amount (balance currency)">
            <Money amount={op.amountInCurrencyBalance} currency={op.balanceCurrency} />
          </DetailRow>
          <DetailRow label="Commission (balance currency)">
            <Money amount={op.amountComissionInCurrencyBalance} currency={op.balanceCurrency} />
          </DetailRow>
          <DetailRow label="Exchange rate of this operation">
            <Rate rate={op.exchangeRate} from={op.balanceCurrency} to={op.currency} />
          </DetailRow>
          <DetailRow label="Initial amount">
            <Money amount={op.amountInitial} currency={op.currency} />
          </DetailRow>
          <DetailRow label="Randomized amount">
            <Money amount={op.amountRandomized} currency={op.currency} />
          </DetailRow>
        </dl>
      </Section>

      <Section title="Details">
        <dl>
          <DetailRow label="Merchant id (idTransactionMerchant)">{op.idTransactionMerchant}</DetailRow>
          <DetailRow label="Created">{when(op.dateAdded)}</DetailRow>
          <DetailRow label="Last status change">{when(op.dateUpdated)}</DetailRow>
          <DetailRow label="Payment method">{op.paymentMethod ?? "—"}</DetailRow>
          <DetailRow label="Bank">{op.bankName ?? "—"}</DetailRow>
          <DetailRow label="Name">{op.nameMediator ?? "—"}</DetailRow>
          <DetailRow label={op.typeOperation === "payIn" ? "Details number" : "Recipient number"}>
            {op.numberMasked ? (
              <RevealNumber
                target={{ type: "operation", id: op.id }}
                masked={op.numberMasked}
                canReveal={can(user.role, "recipients.reveal")}
              />
            ) : (
              "—"
            )}
          </DetailRow>
          {op.linkPaymentForm && <DetailRow label="Payment form">{op.linkPaymentForm}</DetailRow>}
          {op.payoutRequest && (
            <DetailRow label="Pay-out request">{`${op.payoutRequest.id} (${op.payoutRequest.status})`}</DetailRow>
          )}
          <DetailRow label="Mirrored">{`${when(op.mirroredAt)}, last from ${op.lastSource}`}</DetailRow>
          {op.stuckFlaggedAt && <DetailRow label="Flagged as stuck">{when(op.stuckFlaggedAt)}</DetailRow>}
        </dl>
      </Section>

      <Section title="Status timeline">
        <Timeline entries={op.timeline} tz={tz} />
      </Section>

      <Section title="Webhook deliveries">
        <WebhookDeliveries webhooks={op.webhooks} tz={tz} />
      </Section>

      <Section title="API calls">
        <ApiCalls calls={op.apiCalls} tz={tz} />
      </Section>

      <Section title="Raw JSON (last snapshot)">
        <details>
          <summary className="cursor-pointer text-sm">Show</summary>
          <pre
            className="mt-2 max-h-96 overflow-auto rounded bg-zinc-100 p-3 text-xs dark:bg-zinc-950"
            data-testid="raw-json"
          >
            {JSON.stringify(op.raw, null, 2)}
          </pre>
        </details>
      </Section>
    </div>
  );
}
