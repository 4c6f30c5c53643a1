import { useLocale, useTranslations } from "next-intl";
import { TraceLink } from "@/components/operations/id-links";
import { StatusBadge } from "@/components/operations/status-badge";
import type { TimelineEntry } from "@/lib/operations/detail/timeline";
import { formatDateTime, formatDuration } from "@/lib/time/zone";

/**
 * Status changes in order with their source and the time spent in each status. `traceLinks`: each
 * change's reference (a traceID, a webhook delivery) links to what the trace page finds for it.
 */
export function Timeline({
  entries,
  tz,
  traceLinks = false,
}: {
  entries: TimelineEntry[];
  tz: string;
  traceLinks?: boolean;
}) {
  const t = useTranslations("operations.timeline");
  const locale = useLocale();
  if (entries.length === 0) return <p className="text-sm text-zinc-500">{t("empty")}</p>;
  return (
    <ol className="space-y-2" data-testid="timeline">
      {entries.map((e, i) => (
        <li
          key={i}
          className="flex flex-wrap items-center gap-x-3 gap-y-1 border-l-2 border-zinc-300 pl-3 text-sm dark:border-zinc-700"
        >
          <StatusBadge status={e.status} />
          <span className="whitespace-nowrap">{formatDateTime(new Date(e.at), tz, locale)}</span>
          <span className="text-zinc-600 dark:text-zinc-400">
            {t("via", { source: t(`source.${e.source}`) })}
          </span>
          {e.sourceRef && (
            <span className="break-all font-mono text-xs text-zinc-500" data-testid="timeline-ref">
              {traceLinks ? <TraceLink traceID={e.sourceRef} /> : e.sourceRef}
            </span>
          )}
          <span className="text-zinc-600 dark:text-zinc-400">
            {e.durationMs === null
              ? t("final")
              : e.ongoing
                ? t("soFar", { duration: formatDuration(e.durationMs, locale) })
                : formatDuration(e.durationMs, locale)}
          </span>
        </li>
      ))}
    </ol>
  );
}
