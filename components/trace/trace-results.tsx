import Link from "next/link";
import { useLocale, useTranslations } from "next-intl";
import { Money } from "@/components/money/money";
import { statusLabel, typeLabel } from "@/components/operations/labels";
import { StatusBadge } from "@/components/operations/status-badge";
import { Timeline } from "@/components/operations/timeline";
import type { TraceLookup } from "@/lib/trace/lookup";
import { formatDateTime } from "@/lib/time/zone";
import { CallAnswer } from "@/components/operations/call-answer";
import { ScrollArea } from "@/components/ui/scroll-area";

const JSON_BOX = "max-h-64 overflow-auto rounded bg-zinc-100 p-2 dark:bg-zinc-950";

// The frame of one call or operation found.
const FINDING = "rounded-lg border border-zinc-200 bg-white p-3 dark:border-zinc-800 dark:bg-zinc-900";

/** One kind of thing found, under its heading. */
function Found({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section className="space-y-2">
      <h2 className="text-lg font-semibold">{title}</h2>
      {children}
    </section>
  );
}

const json = (value: unknown) => (value === null ? "—" : JSON.stringify(value, null, 2));
/** A response body, or the note that replaced it (shown as the sentence it is, not as a JSON string). */
const body = (call: { response: unknown; withheld: boolean }) =>
  call.withheld && typeof call.response === "string" ? call.response : json(call.response);

/** The calls, webhook deliveries and operations found for a traceID or operation key, times in `tz`. */
export function TraceResults({ lookup, tz }: { lookup: TraceLookup; tz: string }) {
  const t = useTranslations("trace");
  const names = useTranslations("statuses");
  const outcomes = useTranslations("webhooks.outcome");
  const roles = useTranslations("shell.roles");
  const locale = useLocale();
  const when = (iso: string) => `${formatDateTime(new Date(iso), tz, locale)} ${tz}`;
  const role = (name: string) => (roles.has(name as "admin") ? roles(name as "admin") : name);
  const actor = (a: { email: string; role: string } | null) =>
    a ? `${a.email} (${role(a.role)})` : t("system");
  return (
    <div className="space-y-4">
      <Found title={t("calls", { count: lookup.calls.length })}>
        {lookup.calls.map((c) => (
          <article key={c.id} data-testid="trace-call" className={`space-y-1 text-sm ${FINDING}`}>
            <p className="font-mono text-xs break-all">
              {c.method} {c.path}
            </p>
            <p>
              {when(c.startedAt)} · {t("latency", { ms: c.latencyMs })} · <CallAnswer call={c} />
            </p>
            <p>
              traceID <span className="font-mono break-all">{c.traceID ?? "—"}</span> ·{" "}
              {t("by", {
                actor: actor(c.actor),
              })}
            </p>
            {c.message && <p className="text-zinc-600 dark:text-zinc-400">{c.message}</p>}
            {c.error && (
              <p className="font-mono text-red-600" translate="no">
                {c.error}
              </p>
            )}
            <details>
              <summary className="cursor-pointer">{t("requestAndResponse")}</summary>
              <div className="grid gap-2 md:grid-cols-2">
                <ScrollArea label={t("request")} className={JSON_BOX}>
                  <pre className="text-xs">{json(c.request)}</pre>
                </ScrollArea>
                <ScrollArea label={t("response")} className={JSON_BOX}>
                  <pre className="text-xs">{body(c)}</pre>
                </ScrollArea>
              </div>
            </details>
          </article>
        ))}
      </Found>
      {lookup.webhooks.length > 0 && (
        <Found title={t("webhooks", { count: lookup.webhooks.length })}>
          <ul className="space-y-1 text-sm">
            {lookup.webhooks.map((w) => (
              <li key={w.id}>
                #{w.id} · {when(w.receivedAt)} ·{" "}
                {w.operationStatus ? statusLabel(names, w.operationStatus) : "?"} · {outcomes(w.outcome)}
                {w.readBackTraceID && ` · ${t("readBack", { traceID: w.readBackTraceID })}`}
              </li>
            ))}
          </ul>
        </Found>
      )}
      <Found title={t("operations", { count: lookup.operations.length })}>
        {lookup.operations.map((o) => (
          <article key={o.id} data-testid="trace-operation" className={`space-y-2 ${FINDING}`}>
            <p className="flex flex-wrap items-center gap-2 text-sm">
              <Link
                href={`/operations/${o.id}`}
                className="font-mono text-indigo-700 underline break-all dark:text-indigo-300"
              >
                {o.id}
              </Link>
              <StatusBadge status={o.status} />
              <span>{typeLabel(names, o.typeOperation)}</span>
              <Money amount={o.amount} currency={o.currency} />
              <span className="break-all">{o.idTransactionMerchant}</span>
            </p>
            <Timeline entries={o.timeline} tz={tz} />
          </article>
        ))}
      </Found>
    </div>
  );
}
