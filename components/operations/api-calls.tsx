import { useLocale, useTranslations } from "next-intl";
import type { ApiCallItem } from "@/lib/operations/detail/operation-detail";
import { formatDateTime } from "@/lib/time/zone";
import { HeaderRow } from "@/components/ui/header-row";
import { ScrollArea } from "@/components/ui/scroll-area";
import { CallAnswer } from "@/components/operations/call-answer";
import { TraceLink } from "@/components/operations/id-links";

/** Every platform call about an operation, each traceID linking to the trace lookup. */
export function ApiCalls({ calls, tz }: { calls: ApiCallItem[]; tz: string }) {
  const t = useTranslations("operations.calls");
  const heading = useTranslations("operations.detail")("apiCalls");
  const locale = useLocale();
  if (calls.length === 0) return <p className="text-sm text-zinc-500">{t("empty")}</p>;
  return (
    <ScrollArea label={heading} className="max-w-full overflow-x-auto">
      <table className="min-w-full text-sm" data-testid="api-calls">
        <thead>
          <HeaderRow labels={[t("when"), t("call"), t("result"), "traceID", t("by")]} className="text-left" />
        </thead>
        <tbody>
          {calls.map((c) => (
            <tr key={c.id} className="border-t border-zinc-100 dark:border-zinc-800">
              <td className="whitespace-nowrap px-2 py-1">
                {formatDateTime(new Date(c.startedAt), tz, locale)}
              </td>
              <td className="px-2 py-1 font-mono text-xs">
                {c.method} {c.path}
              </td>
              <td className="px-2 py-1">
                <CallAnswer call={c} />
                {/* the transport's own message (an exception's text), recorded as it was: data */}
                {c.error && (
                  <span className="block font-mono text-xs text-red-600" translate="no">
                    {c.error}
                  </span>
                )}
                <span className="block text-xs text-zinc-500">{t("latency", { ms: c.latencyMs })}</span>
              </td>
              <td className="px-2 py-1 font-mono text-xs">
                <TraceLink traceID={c.traceID} />
              </td>
              <td className="px-2 py-1">{c.actorEmail ?? t("system")}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollArea>
  );
}
