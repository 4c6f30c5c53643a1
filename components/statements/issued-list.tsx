import type { IssuedRow } from "@/lib/statements/issued-list";
import { statementLabels as L } from "@/lib/statements/labels";

/** Issued statements with their downloads; a superseded one lists what changed since. */
export function IssuedList({ statements }: { statements: IssuedRow[] }) {
  return (
    <section className="space-y-2" data-testid="issued-statements">
      <h2 className="text-lg font-semibold">Issued statements</h2>
      {statements.length === 0 && <p className="text-sm text-zinc-500">None issued yet.</p>}
      <ul className="space-y-2 text-sm">
        {statements.map((s) => (
          <li key={s.id} className="rounded-md border border-zinc-200 p-2 dark:border-zinc-800">
            <p>
              {s.from} — {s.to} ({s.tz}) · {L.closing}{" "}
              <span className="font-mono">{s.closing ?? L.none}</span> · {L.issuedBy} {s.issuedBy}{" "}
              {s.automatic ? "(monthly, automatic)" : ""} · {s.issuedAt}
              {s.supersededAt && (
                <span className="ml-2 rounded bg-amber-100 px-1 text-amber-900" data-testid="superseded">
                  superseded {s.supersededAt}
                </span>
              )}
            </p>
            <p className="text-xs text-zinc-500">
              {L.contentHash} <span className="font-mono">{s.contentHash}</span> ·{" "}
              {(["xlsx", "pdf", "csv"] as const).map((f) => (
                <a key={f} href={`/api/statements/issued/${s.id}?format=${f}`} className="mr-2 underline">
                  {f.toUpperCase()}
                </a>
              ))}
            </p>
            {s.changes && (
              <details>
                <summary className="cursor-pointer text-xs">{s.changes.total} change(s) since issue</summary>
                <ul className="font-mono text-xs">
                  {s.changes.listed.map((c) => (
                    <li key={`${c.key}-${c.kind}`}>
                      {c.change} {L.kinds[c.kind as keyof typeof L.kinds] ?? c.kind} {c.at} {c.amount} (
                      {c.key})
                    </li>
                  ))}
                </ul>
              </details>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
