import { OperationLink, TraceLink } from "@/components/operations/id-links";
import { LookUpCreation } from "@/components/reconciliation/look-up-creation";
import { Cell, DataRow, DataTable } from "@/components/ui/data-table";
import { translatorFor } from "@/lib/auth/translator";
import type { Locale } from "@/lib/i18n/locales";
import type { GivenUpIntent } from "@/lib/operations/mirror/given-up-intents";
import { exactAmount } from "@/lib/statements/exact-amount";

/** The creations Paydesk stopped resending (given-up intents), with a look-up for those who may run one. */
export async function UnansweredCreations({
  list,
  locale,
  timeZone,
  when,
  mayLookUp,
}: {
  list: { rows: GivenUpIntent[]; total: number };
  locale: Locale;
  timeZone: string;
  when: (iso: string) => string;
  mayLookUp: boolean;
}) {
  const t = await translatorFor("reconciliation", locale);
  const amount = (v: string | null) => (v === null ? "—" : exactAmount(v, locale));
  return (
    <section className="space-y-2" id="unanswered" aria-labelledby="unanswered-title">
      <h2 id="unanswered-title" className="text-lg font-semibold">
        {t("unanswered.title")}
      </h2>
      <p className="text-sm text-zinc-500">{t("unanswered.intro")}</p>
      {list.rows.length === 0 ? (
        <p className="text-sm text-zinc-500">{t("unanswered.none")}</p>
      ) : (
        <>
          {list.total > list.rows.length && (
            <p className="text-sm text-zinc-500">
              {t("unanswered.shown", { shown: list.rows.length, total: list.total })}
            </p>
          )}
          <DataTable
            testId="unanswered-table"
            label={t("unanswered.title")}
            headers={[
              t("unanswered.columns.id"),
              t("unanswered.columns.kind"),
              t("unanswered.columns.amount"),
              t("unanswered.columns.created", { zone: timeZone }),
              t("unanswered.columns.gaveUp", { zone: timeZone }),
              t("unanswered.columns.by"),
              t("unanswered.columns.sends"),
              t("unanswered.columns.last"),
              ...(mayLookUp ? [t("unanswered.columns.action")] : []),
            ]}
          >
            {list.rows.map((r) => (
              <DataRow key={r.idTransactionMerchant} testId="unanswered-row" top>
                <Cell kind="code" translate="no">
                  {r.idTransactionMerchant}
                </Cell>
                <Cell>{t(`unanswered.kinds.${r.kind}`)}</Cell>
                <Cell className="whitespace-nowrap">{amount(r.amount)}</Cell>
                <Cell kind="when">{when(r.createdAt)}</Cell>
                <Cell kind="when">{when(r.gaveUpAt)}</Cell>
                <Cell>{r.createdBy ?? "—"}</Cell>
                <Cell>{r.attempts}</Cell>
                <Cell className="min-w-[14rem] max-w-[20rem] text-xs [overflow-wrap:anywhere]" translate="no">
                  <span className="block font-mono">
                    <TraceLink traceID={r.lastTraceID} />
                  </span>
                  {r.lastMessage && <span className="block">{r.lastMessage}</span>}
                  {r.mirrorDiffers.map((o) => (
                    <span
                      key={o.operationId}
                      className="block text-amber-700 dark:text-amber-400"
                      data-testid="unanswered-mirror-differs"
                    >
                      {t("unanswered.mirrorDiffers", {
                        type: t(`unanswered.kinds.${o.typeOperation}`),
                        amount: amount(o.amountInitial),
                      })}{" "}
                      <OperationLink id={o.operationId} />
                    </span>
                  ))}
                </Cell>
                {mayLookUp && (
                  <Cell className="min-w-[12rem]">
                    <LookUpCreation idTransactionMerchant={r.idTransactionMerchant} />
                  </Cell>
                )}
              </DataRow>
            ))}
          </DataTable>
        </>
      )}
    </section>
  );
}
