import { useLocale, useTranslations } from "next-intl";
import type { StatementSummary } from "@/lib/ledger/statement";
import { exactAmount } from "@/lib/statements/exact-amount";
import { formatDateTime } from "@/lib/time/zone";
import { ScrollArea } from "@/components/ui/scroll-area";
import { useCodeWords } from "./code-words";

/** Opening, movements by group, closing, the check line, freshness, per-day figures and counts. */
export function StatementSummaryView({ summary: s, label }: { summary: StatementSummary; label: string }) {
  const t = useTranslations("statements.document");
  const locale = useLocale();
  const words = useCodeWords();
  const n = (v: string) => exactAmount(v, locale);
  const cur = s.currency ?? "";
  const figures: [string, string][] = [
    [t("opening"), s.opening.available],
    [t("credits"), s.totals.credits],
    [t("debits"), s.totals.debits],
    [t("commissions"), s.totals.commissions],
    [t("holds"), s.totals.holds],
    [t("outside"), s.totals.outside],
    [t("closing"), s.closing.available],
    [t("holdsAtEnd"), s.closing.holds],
  ];
  const lastRun = s.freshness.lastCompleteReconciliationAt;
  const lastRunText = lastRun
    ? `${formatDateTime(new Date(lastRun), s.period.tz, locale)} (${s.period.tz})`
    : null;
  const basis = s.freshness.covered
    ? t("basisCovered", { at: lastRunText ?? "" })
    : lastRunText
      ? t("basisNotCovered", { at: lastRunText })
      : t("basisNoReconciliation");
  return (
    <div className="space-y-3" data-testid="statement-summary">
      <h2 className="text-lg font-semibold">
        {t("title")}: {label} <span className="text-sm font-normal text-zinc-500">({s.period.tz})</span>
      </h2>
      <p
        className={`text-sm ${s.freshness.covered ? "text-zinc-600 dark:text-zinc-400" : "rounded-md bg-amber-50 px-3 py-2 text-amber-900 dark:bg-amber-950 dark:text-amber-200"}`}
        role={s.freshness.covered ? undefined : "status"}
      >
        {t("basis")}: {basis}
      </p>
      <table className="text-sm">
        <tbody>
          {figures.map(([k, v]) => (
            <tr key={k}>
              <th scope="row" className="pr-6 text-left font-normal">
                {k}
              </th>
              <td className="text-right font-mono">
                {n(v)} {cur}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <p
        data-testid="statement-check"
        className={`font-mono text-sm ${s.check.ok ? "text-emerald-700 dark:text-emerald-400" : "text-red-700"}`}
      >
        {t("check")}: {n(s.opening.available)} + {n(s.totals.movements)} = {n(s.check.openingPlusMovements)};{" "}
        {t("closing")} {n(s.check.closing)} — {s.check.ok ? t("checkOk") : t("checkFailed")}
      </p>
      <details>
        <summary className="cursor-pointer text-sm font-medium">{t("days")}</summary>
        <ScrollArea label={t("days")} className="mt-2 overflow-x-auto">
          <table className="text-xs">
            <thead>
              <tr>
                {[
                  t("columns.day"),
                  t("credits"),
                  t("debits"),
                  t("commissions"),
                  t("holds"),
                  t("outside"),
                  t("columns.closing"),
                ].map((h) => (
                  <th key={h} className="px-2 text-left">
                    {h}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="font-mono">
              {s.days.map((d) => (
                <tr key={d.day}>
                  {[
                    words.day(d.day),
                    ...[d.credits, d.debits, d.commissions, d.holds, d.outside, d.closing].map(n),
                  ].map((v, i) => (
                    <td key={i} className="px-2 text-right first:text-left">
                      {v}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollArea>
      </details>
      <details>
        <summary className="cursor-pointer text-sm font-medium">{t("counts")}</summary>
        <ScrollArea label={t("counts")} className="mt-2 overflow-x-auto">
          <table className="text-xs">
            <tbody>
              {s.counts.map((c) => (
                <tr key={`${c.typeOperation}-${c.status}-${c.paymentMethod}`}>
                  <td className="px-2">{words.type(c.typeOperation)}</td>
                  <td className="px-2">{words.status(c.status)}</td>
                  <td className="px-2">{c.paymentMethod ? words.method(c.paymentMethod) : "—"}</td>
                  <td className="px-2 text-right font-mono">{c.operations}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollArea>
      </details>
    </div>
  );
}
