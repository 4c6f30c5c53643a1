import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Cell, DataRow, DataTable } from "@/components/ui/data-table";
import { Field } from "@/components/ui/field";
import { auditActionDescription, auditActorName } from "@/lib/audit/descriptions";
import { parseAuditFilter, listAudit } from "@/lib/audit/queries";
import { requirePagePermission } from "@/lib/auth/session";
import { requestPreferences } from "@/lib/auth/request-preferences";
import { translatorFor } from "@/lib/auth/translator";
import { formatDateTime } from "@/lib/time/zone";
import { OlderPageLink } from "@/components/ui/older-page-link";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("admin.audit");
  return { title: t("title") };
}

type SearchParams = Record<string, string | string[] | undefined>;
const FILTER_KEYS = ["actor", "action", "target", "from", "to"] as const;
/** The action filter matches a prefix: an action's name, not words. */
const ACTION_PREFIX_EXAMPLE = "user.";
const json = (v: unknown) => (v === null || v === undefined ? "" : JSON.stringify(v));

export default async function AuditPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  await requirePagePermission("audit.read");
  const raw = await searchParams;
  const { locale, timeZone } = await requestPreferences();
  // translatorFor rather than getTranslations: the same words, and the page also runs outside Next (tests).
  const t = await translatorFor("admin.audit");
  const parsed = parseAuditFilter(raw, locale, timeZone);
  const value = (k: string) => {
    const v = raw[k];
    return (Array.isArray(v) ? v[0] : v) ?? "";
  };
  const filterQuery = new URLSearchParams();
  for (const k of FILTER_KEYS) if (value(k)) filterQuery.set(k, value(k));
  const page = parsed.ok ? await listAudit(parsed.filter) : null;
  const errors = parsed.ok ? {} : parsed.fieldErrors;
  const next = page?.nextBefore
    ? `/admin/audit?${new URLSearchParams([...filterQuery, ["before", page.nextBefore]])}`
    : null;
  return (
    <section className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-2xl font-semibold">{t("title")}</h1>
        {parsed.ok && (
          <a
            href={`/api/exports/audit${filterQuery.size ? `?${filterQuery}` : ""}`}
            className="rounded-md border border-zinc-300 px-3 py-2 text-sm hover:bg-zinc-100 dark:border-zinc-700 dark:hover:bg-zinc-800"
            download
          >
            {t("export")}
          </a>
        )}
      </div>
      <p className="text-sm text-zinc-500">{t("appendOnly", { zone: timeZone })}</p>
      <form
        method="get"
        action="/admin/audit"
        className="grid gap-2 sm:grid-cols-3 lg:grid-cols-6 lg:items-end"
      >
        {FILTER_KEYS.map((k) => (
          <Field
            key={k}
            label={t(`filters.${k}`)}
            name={k}
            type={k === "from" || k === "to" ? "date" : undefined}
            placeholder={k === "action" ? ACTION_PREFIX_EXAMPLE : undefined}
            defaultValue={value(k)}
            errors={errors[k]}
          />
        ))}
        <Button type="submit" variant="secondary">
          {t("filters.submit")}
        </Button>
      </form>
      {!parsed.ok && <Alert tone="error">{parsed.message}</Alert>}
      {page && page.rows.length === 0 && <p className="text-sm text-zinc-500">{t("none")}</p>}
      {page && page.rows.length > 0 && (
        <DataTable
          testId="audit-table"
          label={t("title")}
          headers={[
            t("columns.when"),
            t("columns.who"),
            t("columns.ip"),
            t("columns.action"),
            t("columns.target"),
            t("columns.before"),
            t("columns.after"),
          ]}
        >
          {page.rows.map((r) => (
            <DataRow key={r.id} testId="audit-row" top>
              <Cell kind="when">{formatDateTime(new Date(r.at), timeZone, locale)}</Cell>
              <Cell>{r.actorEmail ? auditActorName(r.actorEmail, locale) : "—"}</Cell>
              <Cell kind="code">{r.ip ?? "—"}</Cell>
              <Cell className="text-xs">
                <span className="font-mono">{r.action}</span>
                {auditActionDescription(r.action, locale) && (
                  <span className="block text-zinc-500" data-testid="audit-action-description">
                    {auditActionDescription(r.action, locale)}
                  </span>
                )}
              </Cell>
              <Cell className="break-all font-mono text-xs">
                {r.targetType ?? ""} {r.targetEmail ?? r.targetId ?? ""}
                {r.targetEmail && (
                  <span className="block text-zinc-500" data-testid="audit-target-id">
                    {r.targetId}
                  </span>
                )}
              </Cell>
              <Cell kind="json">{json(r.before)}</Cell>
              <Cell kind="json">{json(r.after)}</Cell>
            </DataRow>
          ))}
        </DataTable>
      )}
      <OlderPageLink href={next} label={t("older")} />
    </section>
  );
}
