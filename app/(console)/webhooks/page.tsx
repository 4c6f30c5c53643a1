import type { Metadata } from "next";
import Link from "next/link";
import { getLocale, getTimeZone, getTranslations } from "next-intl/server";
import { anyStatusLabel } from "@/components/operations/labels";
import { OutcomeBadge } from "@/components/webhooks/outcome-badge";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Cell, DataRow, DataTable } from "@/components/ui/data-table";
import { Select } from "@/components/ui/select";
import { NoteText } from "@/components/ui/worded-note";
import { requirePagePermission } from "@/lib/auth/session";
import { localizedFieldErrors } from "@/lib/i18n/validation";
import { asWords, noteLine } from "@/lib/i18n/worded-note";
import { formatDateTime } from "@/lib/time/zone";
import { inboxFilterSchema, listDeliveries, webhookOutcomes } from "@/lib/webhooks/inbox";
import { OperationLink } from "@/components/operations/id-links";
import { OlderPageLink } from "@/components/ui/older-page-link";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("webhooks");
  return { title: t("title") };
}

type SearchParams = Record<string, string | string[] | undefined>;
const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) || undefined;

export default async function WebhooksPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  await requirePagePermission("webhooks.read");
  const [t, names, words, locale, zone] = await Promise.all([
    getTranslations("webhooks"),
    getTranslations("statuses"),
    getTranslations(),
    getLocale(),
    getTimeZone(),
  ]);
  const raw = await searchParams;
  const parsed = inboxFilterSchema.safeParse({ outcome: first(raw.outcome), before: first(raw.before) });
  const filter = parsed.success ? parsed.data : {};
  const when = (iso: string) => `${formatDateTime(new Date(iso), zone, locale)} ${zone}`;
  const page = await listDeliveries(filter, { t: asWords(words), when });
  const outcome = parsed.success ? parsed.data.outcome : undefined;
  const next = page.nextBefore
    ? `/webhooks?${new URLSearchParams({ ...(outcome ? { outcome } : {}), before: page.nextBefore })}`
    : null;
  const filterError = parsed.success
    ? null
    : (Object.values(localizedFieldErrors(parsed.error, locale)).flat()[0] ?? t("checkFilter"));
  return (
    <section className="space-y-4">
      <h1 className="text-2xl font-semibold">{t("inbox")}</h1>
      {filterError && <Alert tone="error">{filterError}</Alert>}
      <form method="get" action="/webhooks" className="flex items-end gap-2">
        <Select label={t("outcomeLabel")} name="outcome" defaultValue={outcome ?? ""}>
          <option value="">{t("all")}</option>
          {webhookOutcomes.map((o) => (
            <option key={o} value={o}>
              {t(`outcome.${o}`)}
            </option>
          ))}
        </Select>
        <Button type="submit" variant="secondary">
          {t("filter")}
        </Button>
      </form>
      {page.rows.length === 0 ? (
        <p className="text-sm text-zinc-500">{t("empty")}</p>
      ) : (
        <DataTable
          testId="webhook-table"
          label={t("inbox")}
          headers={[
            "#",
            t("column.received", { zone }),
            t("column.outcome"),
            t("column.operation"),
            t("column.status"),
            t("column.sourceIp"),
            t("column.detail"),
          ]}
        >
          {page.rows.map((r) => (
            <DataRow key={r.id} testId="webhook-row">
              <Cell>
                <Link href={`/webhooks/${r.id}`} className="underline">
                  {r.id}
                </Link>
              </Cell>
              <Cell kind="when">{formatDateTime(new Date(r.receivedAt), zone, locale)}</Cell>
              <Cell>
                <OutcomeBadge outcome={r.outcome} />
              </Cell>
              <Cell kind="code">
                <OperationLink id={r.operationId} />
              </Cell>
              <Cell>{r.operationStatus ? anyStatusLabel(names, r.operationStatus) : "—"}</Cell>
              <Cell kind="code">{r.sourceIp ?? "—"}</Cell>
              <Cell kind="note" className="text-zinc-600" title={r.note ? noteLine(r.note) : ""}>
                <NoteText note={r.note} />
              </Cell>
            </DataRow>
          ))}
        </DataTable>
      )}
      <OlderPageLink href={next} label={t("older")} />
    </section>
  );
}
