import type { Metadata } from "next";
import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { DriftDecision } from "@/components/reconciliation/drift-decision";
import { RunNow } from "@/components/reconciliation/run-now";
import { UnansweredCreations } from "@/components/reconciliation/unanswered-creations";
import { Alert } from "@/components/ui/alert";
import { Cell, DataRow, DataTable } from "@/components/ui/data-table";
import { NoteText } from "@/components/ui/worded-note";
import { can } from "@/lib/auth/permissions";
import { requirePagePermission } from "@/lib/auth/session";
import { requestPreferences } from "@/lib/auth/request-preferences";
import { catalogWords, translatorFor } from "@/lib/auth/translator";
import { parseLocalized } from "@/lib/i18n/validation";
import { noteLine } from "@/lib/i18n/worded-note";
import { exactAmount } from "@/lib/statements/exact-amount";
import { fieldName, keptByMirror, valueLines, type DriftReader } from "@/lib/reconcile/drift-words";
import { driftCounts, driftFilterSchema, driftStates, listDrift, listRuns } from "@/lib/reconcile/queries";
import { formatDateTime } from "@/lib/time/zone";
import { listGivenUpIntents } from "@/lib/operations/mirror/given-up-intents";

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
  const words = await catalogWords(locale);
  const when = (iso: string | null) => (iso ? formatDateTime(new Date(iso), timeZone, locale) : "—");
  const word = (key: string, code: string) => (t.has(key as "title") ? t(key as "title") : code);
  const parsed = parseLocalized(
    driftFilterSchema,
    { state: first(raw.state), page: first(raw.page) },
    locale,
  );
  const filter = parsed.success ? parsed.data : driftFilterSchema.parse({});
  const [runs, drift, counts, unanswered] = await Promise.all([
    listRuns(20, { t: words, when: (iso) => `${when(iso)} ${timeZone}` }),
    listDrift(filter),
    driftCounts(),
    listGivenUpIntents(),
  ]);
  const mayDecide = can(user.role, "reconciliation.resolve");
  const mayRun = can(user.role, "reconciliation.run");
  const reader: DriftReader = {
    t: words,
    amount: (v) => exactAmount(v, locale),
    when: (iso) => when(iso),
  };
  // An item's side as "name: value" lines; an unreadable item's as the platform sent it.
  const side = (kind: string, value: unknown) => {
    const lines = kind === "unreadable" ? null : valueLines(reader, value);
    return lines
      ? lines.map((line) => (
          <span key={line} className="block">
            {line}
          </span>
        ))
      : short(value);
  };
  const notRepaired = new Map(drift.rows.map((d) => [d.id, keptByMirror(reader, d)]));
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold">{t("title")}</h1>
      {mayRun && <RunNow />}

      <section className="space-y-2">
        <h2 className="text-lg font-semibold">{t("runs.title")}</h2>
        {runs.length === 0 ? (
          <p className="text-sm text-zinc-500">{t("runs.none")}</p>
        ) : (
          <DataTable
            testId="runs-table"
            label={t("runs.title")}
            headers={[
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
          >
            {runs.map((r) => (
              <DataRow key={r.id} testId="run-row">
                <Cell kind="when">{when(r.startedAt)}</Cell>
                <Cell>{word(`runs.kinds.${r.kind}`, r.kind)}</Cell>
                <Cell testId="run-status">{word(`runs.statuses.${r.status}`, r.status)}</Cell>
                <Cell kind="when">{when(r.finishedAt)}</Cell>
                <Cell>{r.pages}</Cell>
                <Cell>{r.operationsSeen}</Cell>
                <Cell>{r.inserted}</Cell>
                <Cell>{r.updated}</Cell>
                <Cell>{r.drift}</Cell>
                <Cell kind="note" title={r.note ? noteLine(r.note) : ""} testId="run-note">
                  <NoteText note={r.note} />
                </Cell>
              </DataRow>
            ))}
          </DataTable>
        )}
      </section>

      <section className="space-y-2">
        <h2 className="text-lg font-semibold">{t("drift.title")}</h2>
        <p className="text-sm text-zinc-500">{t("drift.resolveChangesNothing")}</p>
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
          <DataTable
            testId="drift-table"
            label={t("drift.title")}
            headers={[
              t("drift.columns.found", { zone: timeZone }),
              t("drift.columns.kind"),
              t("drift.columns.operation"),
              t("drift.columns.mirror"),
              t("drift.columns.platform"),
              t("drift.columns.note"),
              ...(mayDecide && filter.state !== "resolved" ? [t("drift.columns.decision")] : []),
            ]}
          >
            {drift.rows.map((d) => (
              <DataRow key={d.id} testId="drift-row" top>
                <Cell kind="when">{when(d.createdAt)}</Cell>
                <Cell>
                  {t(`drift.kinds.${d.kind}`)}
                  {d.fields.length > 0 && (
                    <span className="block text-xs text-zinc-500" data-testid="drift-fields">
                      {d.fields.map((f) => fieldName(reader, f)).join(", ")}
                    </span>
                  )}
                  <span className="block text-xs text-zinc-500" data-testid="drift-explain">
                    {t(`drift.explain.${d.kind}`)}
                  </span>
                  {d.reason && (
                    <span
                      className="block break-all font-mono text-xs text-zinc-500"
                      data-testid="drift-reason"
                    >
                      {d.reason}
                    </span>
                  )}
                </Cell>
                {d.balance ? (
                  <Cell testId="drift-balance">
                    <Link href="/balance" className="underline">
                      {t("drift.balanceLink")}
                    </Link>
                    <span className="block">
                      {t("drift.balanceDifference", {
                        amount: exactAmount(d.balance.amount, locale),
                        currency: d.balance.currency,
                        since: `${when(d.balance.since)} ${timeZone}`,
                      })}
                    </span>
                  </Cell>
                ) : d.operationId ? (
                  <Cell kind="code">
                    <Link href={`/operations/${d.operationId}`} className="underline">
                      {d.operationId}
                    </Link>
                  </Cell>
                ) : (
                  // an unreadable list item whose id did not read either
                  <Cell kind="code">—</Cell>
                )}
                <Cell className="min-w-[10rem] max-w-[16rem] text-xs [overflow-wrap:anywhere]">
                  {side(d.kind, d.mirrorValue)}
                </Cell>
                <Cell className="min-w-[10rem] max-w-[16rem] text-xs [overflow-wrap:anywhere]">
                  {side(d.kind, d.platformValue)}
                </Cell>
                <Cell className="text-xs">
                  {notRepaired.get(d.id) && (
                    <span
                      className="block text-amber-700 dark:text-amber-400"
                      data-testid="drift-not-repaired"
                    >
                      {notRepaired.get(d.id)}
                    </span>
                  )}
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
                  {d.resolvedAt && !d.resolvedBy && (
                    <span className="block text-zinc-500" data-testid="drift-resolved-automatically">
                      {t("drift.resolvedAutomatically", { at: when(d.resolvedAt) })}
                    </span>
                  )}
                </Cell>
                {mayDecide && d.state !== "resolved" && (
                  <Cell className="min-w-[16rem]">
                    <DriftDecision id={d.id} state={d.state} amount={d.balance?.amount} />
                  </Cell>
                )}
              </DataRow>
            ))}
          </DataTable>
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

      <UnansweredCreations
        list={unanswered}
        locale={locale}
        timeZone={timeZone}
        when={when}
        mayLookUp={mayRun}
      />
    </div>
  );
}
