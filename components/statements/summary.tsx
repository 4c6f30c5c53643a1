import type { StatementSummary } from "@/lib/ledger/statement";
import { statementLabels as L } from "@/lib/statements/labels";
import { formatInZone } from "@/lib/time/zone";

/** Opening, movements by group, closing, the check line, freshness, per-day figures and counts. */
export function StatementSummaryView({ summary: s, label }: { summary: StatementSummary; label: string }) {
  const cur = s.currency ?? "";
  const figures: [string, string][] = [
    [L.opening, s.opening.available],
    [L.credits, s.totals.credits],
    [L.debits, s.totals.debits],
    [L.commissions, s.totals.commissions],
    [L.holds, s.totals.holds],
    [L.outside, s.totals.outside],
    [L.closing, s.closing.available],
    [L.holdsAtEnd, s.closing.holds],
  ];
  const lastRun = s.freshness.lastCompleteReconciliationAt;
  const lastRunText = lastRun ? `${formatInZone(new Date(lastRun), s.period.tz)} (${s.period.tz})` : null;
  return (
    <div className="space-y-3" data-testid="statement-summary">
      <h2 className="text-lg font-semibold">
        {L.title}: {label} <span className="text-sm font-normal text-zinc-500">({s.period.tz})</span>
      </h2>
      <p
        className={`text-sm ${s.freshness.covered ? "text-zinc-600 dark:text-zinc-400" : "rounded-md bg-amber-50 px-3 py-2 text-amber-900 dark:bg-amber-950 dark:text-amber-200"}`}
        role={s.freshness.covered ? undefined : "status"}
      >
        {L.basis}: {s.freshness.covered ? L.basisCovered(lastRunText ?? "") : L.basisNotCovered(lastRunText)}
      </p>
      <table className="text-sm">
        <tbody>
          {figures.map(([k, v]) => (
            <tr key={k}>
              <th scope="row" className="pr-6 text-left font-normal">
                {k}
              </th>
              <td className="text-right font-mono">
                {v} {cur}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <p
        data-testid="statement-check"
        className={`font-mono text-sm ${s.check.ok ? "text-emerald-700 dark:text-emerald-400" : "text-red-700"}`}
      >
        {L.check}: {s.opening.available} + {s.totals.movements} = {s.check.openingPlusMovements}; {L.closing}{" "}
        {s.check.closing} — {s.check.ok ? L.checkOk : L.checkFailed}
      </p>
      <details>
        <summary className="cursor-pointer text-sm font-medium">{L.days}</summary>
        <table className="mt-2 text-xs">
          <thead>
            <tr>
              {[L.columns.day, L.credits, L.debits, L.commissions, L.holds, L.outside, L.columns.closing].map(
                (h) => (
                  <th key={h} className="px-2 text-left">
                    {h}
                  </th>
                ),
              )}
            </tr>
          </thead>
          <tbody className="font-mono">
            {s.days.map((d) => (
              <tr key={d.day}>
                {[d.day, d.credits, d.debits, d.commissions, d.holds, d.outside, d.closing].map((v, i) => (
                  <td key={i} className="px-2 text-right first:text-left">
                    {v}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </details>
      <details>
        <summary className="cursor-pointer text-sm font-medium">{L.counts}</summary>
        <table className="mt-2 text-xs">
          <tbody>
            {s.counts.map((c) => (
              <tr key={`${c.typeOperation}-${c.status}-${c.paymentMethod}`}>
                <td className="px-2">{c.typeOperation}</td>
                <td className="px-2">{c.status}</td>
                <td className="px-2">{c.paymentMethod ?? L.none}</td>
                <td className="px-2 text-right font-mono">{c.operations}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </div>
  );
}
