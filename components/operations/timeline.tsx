import { StatusBadge } from "@/components/operations/status-badge";
import { sourceLabels, type TimelineEntry } from "@/lib/operations/detail/timeline";
import { formatDuration, formatInZone } from "@/lib/time/zone";

/** Status changes in order with their source and the time spent in each status. */
export function Timeline({ entries, tz }: { entries: TimelineEntry[]; tz: string }) {
  if (entries.length === 0) return <p className="text-sm text-zinc-500">No status history recorded.</p>;
  return (
    <ol className="space-y-2" data-testid="timeline">
      {entries.map((e, i) => (
        <li
          key={i}
          className="flex flex-wrap items-center gap-x-3 gap-y-1 border-l-2 border-zinc-300 pl-3 text-sm dark:border-zinc-700"
        >
          <StatusBadge status={e.status} />
          <span className="whitespace-nowrap">{formatInZone(new Date(e.at), tz)}</span>
          <span className="text-zinc-600 dark:text-zinc-400">via {sourceLabels[e.source]}</span>
          {e.sourceRef && <span className="break-all font-mono text-xs text-zinc-500">{e.sourceRef}</span>}
          <span className="text-zinc-600 dark:text-zinc-400">
            {e.durationMs === null ? "final" : `${formatDuration(e.durationMs)}${e.ongoing ? " so far" : ""}`}
          </span>
        </li>
      ))}
    </ol>
  );
}
