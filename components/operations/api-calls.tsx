import { useLocale, useTranslations } from "next-intl";
import type { ApiCallItem, RetentionNote } from "@/lib/operations/detail/operation-detail";
import { formatDateTime } from "@/lib/time/zone";
import { HeaderRow } from "@/components/ui/header-row";
import { ScrollArea } from "@/components/ui/scroll-area";
import { CallAnswer } from "@/components/operations/call-answer";
import { TraceLink } from "@/components/operations/id-links";

/**
 * Every platform call about an operation, each traceID linking to the trace lookup. For an operation
 * older than the call records' retention, says that older records are deleted: an empty list then does
 * not mean no call was made, and a list with rows may be missing the earlier ones.
 */
export function ApiCalls({
  calls,
  tz,
  retention,
}: {
  calls: ApiCallItem[];
  tz: string;
  retention: RetentionNote;
}) {
  const t = useTranslations("operations.calls");
  const heading = useTranslations("operations.detail")("apiCalls");
  const locale = useLocale();
  const periods = { days: retention.days, longerDays: retention.longerDays };
  if (calls.length === 0) {
    return (
      <p className="text-sm text-zinc-500" data-testid="api-calls-empty">
        {retention.mayBeIncomplete ? t("emptyRetention", periods) : t("empty")}
      </p>
    );
  }
  return (
    <ScrollArea label={heading} className="max-w-full overflow-x-auto">
      {retention.mayBeIncomplete && (
        <p className="mb-2 text-sm text-amber-700 dark:text-amber-300" data-testid="api-calls-retention">
          {t("incompleteRetention", periods)}
        </p>
      )}
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
