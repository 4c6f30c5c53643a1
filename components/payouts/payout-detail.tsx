import Link from "next/link";
import { useLocale, useTimeZone, useTranslations } from "next-intl";
import { Money } from "@/components/money/money";
import { StatusBadge } from "@/components/operations/status-badge";
import { DecisionForm } from "@/components/payouts/decision-form";
import { PaymentMethodName } from "@/components/payouts/payment-method";
import { PayoutSending } from "@/components/payouts/payout-sending";
import { PayoutStatusBadge } from "@/components/payouts/payout-status-badge";
import { PlatformErrorNotice } from "@/components/payouts/platform-error";
import { RequestButtons } from "@/components/payouts/request-buttons";
import { RevealNumber } from "@/components/recipients/reveal-number";
import { DetailRow } from "@/components/ui/detail-row";
import type { Locale } from "@/lib/i18n/locales";
import type { PayoutDetail } from "@/lib/payouts/queries";
import { formatDateTime } from "@/lib/time/zone";

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

/** One pay-out request: its platform side, the request as entered, the approvals and what may be done. */
export function PayoutDetailView({
  p,
  canReveal,
  canApprove,
}: {
  p: PayoutDetail;
  canReveal: boolean;
  /** The viewer holds payouts.approve (whether they may decide on this request: p.can.approve, p.can.reject). */
  canApprove: boolean;
}) {
  const t = useTranslations("payouts");
  const locale = useLocale() as Locale;
  const timeZone = useTimeZone() ?? "UTC";
  const when = (iso: string | null) =>
    iso ? `${formatDateTime(new Date(iso), timeZone, locale)} ${timeZone}` : "—";
  const platformState =
    p.status === "failed_to_submit"
      ? t("detail.refused")
      : p.status === "submitting"
        ? t("detail.submitting")
        : p.sending
          ? t("detail.queued")
          : t("detail.notSent");

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="space-y-1">
          <Link href="/payouts" className="text-sm text-indigo-700 underline dark:text-indigo-300">
            ← {t("title")}
          </Link>
          <h1 className="flex flex-wrap items-center gap-2 text-2xl font-semibold">
            {t("detail.heading")} <Money amount={p.amount} currency={p.currency} />{" "}
            <PayoutStatusBadge status={p.status} />
          </h1>
          <p className="text-sm">
            {t("fields.merchantIdFull")}:{" "}
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

      <Section title={t("detail.platform")} testId="payout-platform">
        {p.operationId ? (
          <dl>
            <DetailRow label={t("detail.operation")}>
              <Link
                href={`/operations/${p.operationId}`}
                className="font-mono text-indigo-700 underline dark:text-indigo-300"
                data-testid="payout-operation-link"
              >
                {p.operationId}
              </Link>
            </DetailRow>
            <DetailRow label={t("detail.platformStatus")}>
              {p.operationStatus ? <StatusBadge status={p.operationStatus} /> : "—"}
            </DetailRow>
            <DetailRow label={t("detail.sent")}>{when(p.submittedAt)}</DetailRow>
            <DetailRow label={t("detail.creationTrace")}>
              <span className="font-mono">{p.lastTraceID ?? "—"}</span>
            </DetailRow>
          </dl>
        ) : (
          <p className="text-sm text-zinc-600 dark:text-zinc-400">{platformState}</p>
        )}
      </Section>

      <Section title={t("detail.request")}>
        <dl>
          <DetailRow label={t("fields.paymentMethod")}>
            <PaymentMethodName method={p.paymentMethod} />
          </DetailRow>
          <DetailRow label={t("fields.bank")}>{p.bankName}</DetailRow>
          <DetailRow label={t("fields.recipientNumber")}>
            <RevealNumber
              target={{ type: "payoutRequest", id: p.id }}
              masked={p.recipientMasked}
              canReveal={canReveal}
            />
          </DetailRow>
          <DetailRow label={t("fields.recipientName")}>{p.recipientName || t("fields.empty")}</DetailRow>
          <DetailRow label={t("fields.clientId")}>{p.clientID}</DetailRow>
          <DetailRow label={t("fields.clientIp")}>{p.clientIP}</DetailRow>
          <DetailRow label={t("fields.clientRegistered")}>{when(p.clientDateCreated)}</DetailRow>
          <DetailRow label={t("fields.webhook")}>{p.webhookUrl ?? t("fields.merchantDefault")}</DetailRow>
          <DetailRow label={t("fields.maker")}>{p.makerEmail}</DetailRow>
          <DetailRow label={t("detail.created")}>{when(p.createdAt)}</DetailRow>
          {p.overrideReason && <DetailRow label={t("detail.overrideReason")}>{p.overrideReason}</DetailRow>}
        </dl>
      </Section>

      <Section
        title={t("detail.approvals", { approvals: p.approvals, required: p.requiredApprovals })}
        testId="payout-approvals"
      >
        {p.decisions.length === 0 ? (
          <p className="text-sm text-zinc-600 dark:text-zinc-400">
            {p.requiredApprovals === 0 ? t("detail.autoApproved") : t("detail.noDecision")}
          </p>
        ) : (
          <ul className="space-y-2">
            {p.decisions.map((d) => (
              <li key={`${d.approverEmail}-${d.at}`} className="text-sm" data-testid="payout-decision">
                {t.rich("detail.decisionLine", {
                  decision: d.decision,
                  email: d.approverEmail,
                  when: when(d.at),
                  comment: d.comment,
                  strong: (chunks) => <strong>{chunks}</strong>,
                  bdi: (chunks) => <bdi>{chunks}</bdi>,
                })}
              </li>
            ))}
          </ul>
        )}
        {canApprove && <DecisionForm payoutId={p.id} canApprove={p.can.approve} canReject={p.can.reject} />}
        {p.approveBlockedReason && (
          <p className="text-sm text-zinc-600 dark:text-zinc-400">{p.approveBlockedReason}</p>
        )}
      </Section>
    </div>
  );
}
