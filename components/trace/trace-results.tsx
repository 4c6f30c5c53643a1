import Link from "next/link";
import { Money } from "@/components/money/money";
import { StatusBadge } from "@/components/operations/status-badge";
import { Timeline } from "@/components/operations/timeline";
import type { TraceLookup } from "@/lib/trace/lookup";
import { formatInZone } from "@/lib/time/zone";

const json = (value: unknown) => (value === null ? "—" : JSON.stringify(value, null, 2));

/** The calls, webhook deliveries and operations found for a traceID or operation key. */
export function TraceResults({ lookup }: { lookup: TraceLookup }) {
  const tz = "UTC";
  return (
    <div className="space-y-4">
      <section className="space-y-2">
        <h2 className="text-lg font-semibold">API calls ({lookup.calls.length})</h2>
        {lookup.calls.map((c) => (
          <article
            key={c.id}
            data-testid="trace-call"
            className="space-y-1 rounded-lg border border-zinc-200 bg-white p-3 text-sm dark:border-zinc-800 dark:bg-zinc-900"
          >
            <p className="font-mono text-xs break-all">
              {c.method} {c.path}
            </p>
            <p>
              {formatInZone(new Date(c.startedAt), tz)} UTC · {c.latencyMs} ms ·{" "}
              {c.envelopeStatus ?? c.httpStatus ?? "no answer"}
              {c.codeError && ` · ${c.codeError}`}
            </p>
            <p>
              traceID <span className="font-mono break-all">{c.traceID ?? "—"}</span> · by{" "}
              {c.actor ? `${c.actor.email} (${c.actor.role})` : "system"}
            </p>
            {c.message && <p className="text-zinc-600 dark:text-zinc-400">{c.message}</p>}
            {c.error && <p className="text-red-600">{c.error}</p>}
            <details>
              <summary className="cursor-pointer">Request and response (redacted)</summary>
              <div className="grid gap-2 md:grid-cols-2">
                <pre className="max-h-64 overflow-auto rounded bg-zinc-100 p-2 text-xs dark:bg-zinc-950">
                  {json(c.request)}
                </pre>
                <pre className="max-h-64 overflow-auto rounded bg-zinc-100 p-2 text-xs dark:bg-zinc-950">
                  {json(c.response)}
                </pre>
              </div>
            </details>
          </article>
        ))}
      </section>
      {lookup.webhooks.length > 0 && (
        <section className="space-y-2">
          <h2 className="text-lg font-semibold">Webhook deliveries ({lookup.webhooks.length})</h2>
          <ul className="space-y-1 text-sm">
            {lookup.webhooks.map((w) => (
              <li key={w.id}>
                #{w.id} · {formatInZone(new Date(w.receivedAt), tz)} UTC · {w.operationStatus ?? "?"} ·{" "}
                {w.outcome}
                {w.readBackTraceID && ` · read-back ${w.readBackTraceID}`}
              </li>
            ))}
          </ul>
        </section>
      )}
      <section className="space-y-2">
        <h2 className="text-lg font-semibold">Operations ({lookup.operations.length})</h2>
        {lookup.operations.map((o) => (
          <article
            key={o.id}
            data-testid="trace-operation"
            className="space-y-2 rounded-lg border border-zinc-200 bg-white p-3 dark:border-zinc-800 dark:bg-zinc-900"
          >
            <p className="flex flex-wrap items-center gap-2 text-sm">
              <Link
                href={`/operations/${o.id}`}
                className="font-mono text-indigo-700 underline break-all dark:text-indigo-300"
              >
                {o.id}
              </Link>
              <StatusBadge status={o.status} />
              <span>{o.typeOperation}</span>
              <Money amount={o.amount} currency={o.currency} />
              <span className="break-all">{o.idTransactionMerchant}</span>
            </p>
            <Timeline entries={o.timeline} tz={tz} />
          </article>
        ))}
      </section>
    </div>
  );
}
