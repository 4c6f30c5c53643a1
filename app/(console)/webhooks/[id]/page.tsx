import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { getLocale, getTimeZone, getTranslations } from "next-intl/server";
import { anyStatusLabel } from "@/components/operations/labels";
import { OutcomeBadge } from "@/components/webhooks/outcome-badge";
import { RawBody } from "@/components/webhooks/raw-body";
import { ReprocessButton } from "@/components/webhooks/reprocess-button";
import { NoteText } from "@/components/ui/worded-note";
import { can } from "@/lib/auth/permissions";
import { requirePagePermission } from "@/lib/auth/session";
import { asWords } from "@/lib/i18n/worded-note";
import { formatDateTime } from "@/lib/time/zone";
import { deliveryIdSchema, getDelivery } from "@/lib/webhooks/inbox";
import { OperationLink, TraceLink } from "@/components/operations/id-links";
import { ScrollArea } from "@/components/ui/scroll-area";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("webhooks.delivery");
  return { title: t("title") };
}

export default async function WebhookDeliveryPage({ params }: { params: Promise<{ id: string }> }) {
  const user = await requirePagePermission("webhooks.read");
  const { id } = await params;
  const parsed = deliveryIdSchema.safeParse(id);
  if (!parsed.success) notFound();
  const [t, outcomes, names, words, locale, zone] = await Promise.all([
    getTranslations("webhooks.delivery"),
    getTranslations("webhooks.outcome"),
    getTranslations("statuses"),
    getTranslations(),
    getLocale(),
    getTimeZone(),
  ]);
  const when = (iso: string) => `${formatDateTime(new Date(iso), zone, locale)} ${zone}`;
  const d = await getDelivery(parsed.data, { t: asWords(words), when });
  if (!d) notFound();
  return (
    <section className="space-y-4">
      <Link href="/webhooks" className="text-sm underline">
        {t("back")}
      </Link>
      <h1 className="text-2xl font-semibold">{t("heading", { id: d.id })}</h1>
      <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="text-zinc-500">{t("outcome")}</dt>
        <dd data-testid="delivery-outcome">
          <OutcomeBadge outcome={d.outcome} /> <NoteText note={d.note} />
        </dd>
        <dt className="text-zinc-500">{t("received")}</dt>
        <dd>{when(d.receivedAt)}</dd>
        <dt className="text-zinc-500">{t("processed")}</dt>
        <dd>{d.processedAt ? when(d.processedAt) : t("notYet")}</dd>
        <dt className="text-zinc-500">{t("attempts")}</dt>
        <dd>{d.processingAttempts}</dd>
        <dt className="text-zinc-500">{t("sourceIp")}</dt>
        <dd className="font-mono">{d.sourceIp ?? t("unknown")}</dd>
        <dt className="text-zinc-500">{t("operation")}</dt>
        <dd className="font-mono">
          <OperationLink id={d.operationId} /> {d.operationStatus && anyStatusLabel(names, d.operationStatus)}
        </dd>
        <dt className="text-zinc-500">traceID</dt>
        <dd className="font-mono">{d.traceID ?? "—"}</dd>
        <dt className="text-zinc-500">{t("readBackTraceID")}</dt>
        <dd className="font-mono">
          <TraceLink traceID={d.readBackTraceID} />
        </dd>
        <dt className="text-zinc-500">{t("bodySize")}</dt>
        <dd>{t("bytes", { count: d.bodyBytes })}</dd>
      </dl>
      {d.canReprocess && can(user.role, "webhooks.reprocess") && <ReprocessButton id={d.id} />}
      {!d.canReprocess && d.outcome !== "received" && (
        <p className="text-sm text-zinc-500">{t("notProcessedAgain", { outcome: outcomes(d.outcome) })}</p>
      )}
      <h2 className="text-lg font-semibold">{t("headers")}</h2>
      <ScrollArea label={t("headers")} className="overflow-x-auto rounded bg-zinc-100 p-2 dark:bg-zinc-900">
        <pre className="text-xs">{JSON.stringify(d.headers, null, 2)}</pre>
      </ScrollArea>
      <RawBody
        id={d.id}
        body={d.body}
        numbersMasked={d.bodyMasked}
        canReveal={can(user.role, "recipients.reveal")}
      />
    </section>
  );
}
