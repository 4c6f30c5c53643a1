import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { getLocale, getTimeZone, getTranslations } from "next-intl/server";
import { Money, Rate } from "@/components/money/money";
import { ApiCalls } from "@/components/operations/api-calls";
import { paymentMethodLabel, typeTitle } from "@/components/operations/labels";
import { RefreshButton } from "@/components/operations/refresh-button";
import { StatusBadge } from "@/components/operations/status-badge";
import { Timeline } from "@/components/operations/timeline";
import { WebhookDeliveries } from "@/components/operations/webhook-deliveries";
import { RevealNumber } from "@/components/recipients/reveal-number";
import { can } from "@/lib/auth/permissions";
import { requirePagePermission } from "@/lib/auth/session";
import { getOperationDetail } from "@/lib/operations/detail/operation-detail";
import { canonicalTimeZone, formatDateTime } from "@/lib/time/zone";
import { isUuid } from "@/lib/uuid";
import { DetailRow } from "@/components/ui/detail-row";
import { Card } from "@/components/ui/card";
import { ScrollArea } from "@/components/ui/scroll-area";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("operations.detail");
  return { title: t("title") };
}

/** The method's name, with the platform's code beside it when the name is not the code. */
function MethodName({ label, code }: { label: string; code: string }) {
  if (label === code) return <span className="font-mono">{code}</span>;
  return (
    <>
      {label} <span className="font-mono text-xs text-zinc-500">{code}</span>
    </>
  );
}

type MoneyLabel =
  "amount" | "commission" | "amountBalance" | "commissionBalance" | "amountInitial" | "amountRandomized";

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
  const [t, names, sources, locale, zone] = await Promise.all([
    getTranslations("operations.detail"),
    getTranslations("statuses"),
    getTranslations("operations.timeline.source"),
    getLocale(),
    getTimeZone(),
  ]);
  const tz = (typeof tzParam === "string" && canonicalTimeZone(tzParam)) || zone;
  const moneyRow = (label: MoneyLabel, amount: string | null, currency: string | null) => (
    <DetailRow label={t(label)}>
      <Money amount={amount} currency={currency} />
    </DetailRow>
  );
  const when = (iso: string | null) => (iso ? `${formatDateTime(new Date(iso), tz, locale)} (${tz})` : "—");

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="space-y-1">
          <Link href="/operations" className="text-sm text-indigo-700 underline dark:text-indigo-300">
            {t("back")}
          </Link>
          <h1 className="flex flex-wrap items-center gap-2 text-2xl font-semibold">
            {typeTitle(names, op.typeOperation)} <StatusBadge status={op.status} />
          </h1>
          <p className="break-all font-mono text-xs text-zinc-500">{op.id}</p>
        </div>
        {can(user.role, "operations.refresh") && <RefreshButton operationId={op.id} />}
      </div>

      <Card title={t("amounts")}>
        <dl>
          {moneyRow("amount", op.amount, op.currency)}
          {moneyRow("commission", op.amountComission, op.currency)}
          {moneyRow("amountBalance", op.amountInCurrencyBalance, op.balanceCurrency)}
          {moneyRow("commissionBalance", op.amountComissionInCurrencyBalance, op.balanceCurrency)}
          <DetailRow label={t("rate")}>
            <Rate rate={op.exchangeRate} from={op.balanceCurrency} to={op.currency} />
          </DetailRow>
          {moneyRow("amountInitial", op.amountInitial, op.currency)}
          {moneyRow("amountRandomized", op.amountRandomized, op.currency)}
        </dl>
      </Card>

      <Card title={t("details")}>
        <dl>
          <DetailRow label={t("merchantId")}>{op.idTransactionMerchant}</DetailRow>
          <DetailRow label={t("created")}>{when(op.dateAdded)}</DetailRow>
          <DetailRow label={t("lastStatusChange")}>{when(op.dateUpdated)}</DetailRow>
          <DetailRow label={t("paymentMethod")}>
            {op.paymentMethod ? (
              <MethodName label={paymentMethodLabel(names, op.paymentMethod)} code={op.paymentMethod} />
            ) : (
              "—"
            )}
          </DetailRow>
          <DetailRow label={t("bank")}>{op.bankName ?? "—"}</DetailRow>
          <DetailRow label={t("name")}>{op.nameMediator ?? "—"}</DetailRow>
          <DetailRow label={op.typeOperation === "payIn" ? t("detailsNumber") : t("recipientNumber")}>
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
          {op.linkPaymentForm && <DetailRow label={t("paymentForm")}>{op.linkPaymentForm}</DetailRow>}
          {op.payoutRequest && (
            <DetailRow
              label={t("payoutRequest")}
            >{`${op.payoutRequest.id} (${op.payoutRequest.status})`}</DetailRow>
          )}
          <DetailRow label={t("mirrored")}>
            {t("mirroredValue", { when: when(op.mirroredAt), source: sources(op.lastSource) })}
          </DetailRow>
          {op.stuckFlaggedAt && <DetailRow label={t("flaggedStuck")}>{when(op.stuckFlaggedAt)}</DetailRow>}
        </dl>
      </Card>

      <Card title={t("timeline")}>
        <Timeline entries={op.timeline} tz={tz} traceLinks={can(user.role, "trace.read")} />
      </Card>

      <Card title={t("webhooks")}>
        <WebhookDeliveries webhooks={op.webhooks} tz={tz} retention={op.retention.webhooks} />
      </Card>

      <Card title={t("apiCalls")}>
        <ApiCalls calls={op.apiCalls} tz={tz} retention={op.retention.apiCalls} />
      </Card>

      <Card title={t("raw")}>
        <details>
          <summary className="cursor-pointer text-sm">{t("showRaw")}</summary>
          <ScrollArea
            label={t("raw")}
            className="mt-2 max-h-96 overflow-auto rounded bg-zinc-100 p-3 dark:bg-zinc-950"
          >
            <pre className="text-xs" data-testid="raw-json">
              {JSON.stringify(op.raw, null, 2)}
            </pre>
          </ScrollArea>
        </details>
      </Card>
    </div>
  );
}
