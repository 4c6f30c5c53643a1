import type { Metadata } from "next";
import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { DriftDecision } from "@/components/reconciliation/drift-decision";
import { RunNow } from "@/components/reconciliation/run-now";
import { Alert } from "@/components/ui/alert";
import { can } from "@/lib/auth/permissions";
import { requirePagePermission } from "@/lib/auth/session";
import { requestPreferences } from "@/lib/i18n/request-locale";
import { translatorFor } from "@/lib/i18n/server";
import { parseLocalized } from "@/lib/i18n/validation";
import { driftCounts, driftFilterSchema, driftStates, listDrift, listRuns } from "@/lib/reconcile/queries";
import { formatDateTime } from "@/lib/time/zone";
import { HeaderRow } from "@/components/ui/header-row";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("reconciliation");
  return { title: t("title") };
}

type SearchParams = Record<string, string | string[] | undefined>;
const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) || undefined;
const short = (v: unknown) => (v === null || v === undefined ? "—" : JSON.stringify(v));

export default async function ReconciliationPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const user = await requirePagePermission("reconciliation.read");
  const raw = await searchParams;
  const { locale, timeZone } = await requestPreferences();
  // translatorFor rather than getTranslations: the same words, and the page also runs outside Next (tests).
  const t = await translatorFor("reconciliation");
  const when = (iso: string | null) => (iso ? formatDateTime(new Date(iso), timeZone, locale) : "—");
  const word = (key: string, code: string) => (t.has(key as "title") ? t(key as "title") : code);
  const parsed = parseLocalized(
    driftFilterSchema,
    { state: first(raw.state), page: first(raw.page) },
    locale,
  );
  const filter = parsed.success ? parsed.data : driftFilterSchema.parse({});
  const [runs, drift, counts] = await Promise.all([listRuns(), listDrift(filter), driftCounts()]);
  const mayDecide = can(user.role, "reconciliation.resolve");
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold">{t("title")}</h1>
      {can(user.role, "reconciliation.run") && <RunNow />}

      <section className="space-y-2">
        <h2 className="text-lg font-semibold">{t("runs.title")}</h2>
        {runs.length === 0 ? (
          <p className="text-sm text-zinc-500">{t("runs.none")}</p>
        ) : (
          <div className="overflow-x-auto">
            <table className="w-full text-left text-sm" data-testid="runs-table">
              <thead className="text-xs text-zinc-500">
                <HeaderRow
                  labels={[
                    t("runs.columns.started", { zone: timeZone }),
                    t("runs.columns.kind"),
                    t("runs.columns.status"),
                    t("runs.columns.finished"),
                    t("runs.columns.pages"),
                    t("runs.columns.seen"),
                    t("runs.columns.inserted"),
                    t("runs.columns.updated"),
                    t("runs.columns.drift"),
                    t("runs.columns.note"),
                  ]}
                />
              </thead>
              <tbody>
                {runs.map((r) => (
                  <tr
                    key={r.id}
                    data-testid="run-row"
                    className="border-t border-zinc-200 dark:border-zinc-800"
                  >
                    <td className="whitespace-nowrap px-2 py-1">{when(r.startedAt)}</td>
                    <td className="px-2 py-1">{word(`runs.kinds.${r.kind}`, r.kind)}</td>
                    <td className="px-2 py-1" data-testid="run-status">
                      {word(`runs.statuses.${r.status}`, r.status)}
                    </td>
                    <td className="whitespace-nowrap px-2 py-1">{when(r.finishedAt)}</td>
                    <td className="px-2 py-1">{r.pages}</td>
                    <td className="px-2 py-1">{r.operationsSeen}</td>
                    <td className="px-2 py-1">{r.inserted}</td>
                    <td className="px-2 py-1">{r.updated}</td>
                    <td className="px-2 py-1">{r.drift}</td>
                    <td className="max-w-xs truncate px-2 py-1 text-xs" title={r.error ?? r.stopReason ?? ""}>
                      {r.error ?? r.stopReason ?? ""}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>

      <section className="space-y-2">
        <h2 className="text-lg font-semibold">{t("drift.title")}</h2>
        {!parsed.success && (
          <Alert tone="error">{Object.values(parsed.fieldErrors).flat()[0] ?? t("drift.checkFilter")}</Alert>
        )}
        <nav aria-label={t("drift.stateNav")} className="flex gap-2 text-sm">
          {driftStates.map((s) => (
            <Link
              key={s}
              href={`/reconciliation?state=${s}`}
              aria-current={filter.state === s ? "page" : undefined}
              className="rounded-md px-2 py-1 aria-[current=page]:bg-zinc-200 dark:aria-[current=page]:bg-zinc-800"
            >
              {t(`drift.states.${s}`)} ({counts[s]})
            </Link>
          ))}
        </nav>
        {drift.rows.length === 0 ? (
          <p className="text-sm text-zinc-500">{t("drift.none", { state: filter.state })}</p>
        ) : (
          <div className="overflow-x-auto">
            <table className="w-full text-left text-sm" data-testid="drift-table">
              <thead className="text-xs text-zinc-500">
                <HeaderRow
                  labels={[
                    t("drift.columns.found", { zone: timeZone }),
                    t("drift.columns.kind"),
                    t("drift.columns.operation"),
                    t("drift.columns.mirror"),
                    t("drift.columns.platform"),
                    t("drift.columns.note"),
                    ...(mayDecide && filter.state !== "resolved" ? [t("drift.columns.decision")] : []),
                  ]}
                />
              </thead>
              <tbody>
                {drift.rows.map((d) => (
                  <tr
                    key={d.id}
                    data-testid="drift-row"
                    className="border-t border-zinc-200 align-top dark:border-zinc-800"
                  >
                    <td className="whitespace-nowrap px-2 py-1">{when(d.createdAt)}</td>
                    <td className="px-2 py-1">
                      {t(`drift.kinds.${d.kind}`)}
                      {d.fields.length > 0 && (
                        <span className="block text-xs text-zinc-500" data-testid="drift-fields">
                          {d.fields.join(", ")}
                        </span>
                      )}
                    </td>
                    <td className="px-2 py-1 font-mono text-xs">
                      <Link href={`/operations/${d.operationId}`} className="underline">
                        {d.operationId}
                      </Link>
                    </td>
                    <td className="max-w-[14rem] break-all px-2 py-1 font-mono text-xs">
                      {short(d.mirrorValue)}
                    </td>
                    <td className="max-w-[14rem] break-all px-2 py-1 font-mono text-xs">
                      {short(d.platformValue)}
                    </td>
                    <td className="px-2 py-1 text-xs">
                      {d.repairedAt && (
                        <span className="block text-zinc-500" data-testid="drift-repaired">
                          {d.sourceRef
                            ? t("drift.repairedTrace", { at: when(d.repairedAt), traceID: d.sourceRef })
                            : t("drift.repaired", { at: when(d.repairedAt) })}
                        </span>
                      )}
                      {d.note ?? ""}
                      {d.resolvedBy && (
                        <span className="block text-zinc-500">
                          {t("drift.resolvedBy", { email: d.resolvedBy, at: when(d.resolvedAt) })}
                        </span>
                      )}
                    </td>
                    {mayDecide && d.state !== "resolved" && (
                      <td className="min-w-[16rem] px-2 py-1">
                        <DriftDecision id={d.id} state={d.state} />
                      </td>
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <div className="flex gap-3 text-sm">
          {filter.page > 1 && (
            <Link
              href={`/reconciliation?state=${filter.state}&page=${filter.page - 1}`}
              className="underline"
            >
              {t("drift.newer")}
            </Link>
          )}
          {drift.hasMore && (
            <Link
              href={`/reconciliation?state=${filter.state}&page=${filter.page + 1}`}
              className="underline"
            >
              {t("drift.older")}
            </Link>
          )}
        </div>
      </section>
    </div>
  );
}
