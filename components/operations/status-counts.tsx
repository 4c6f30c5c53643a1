import Link from "next/link";
import { filterParams, type OperationFilter } from "@/lib/operations/list/filter";
import { countByStatus } from "@/lib/operations/list/queries";
import { OPERATION_STATUSES } from "@/lib/platform/schemas";

/** How many operations of the current filter are in each status; each count filters by that status. */
export async function StatusCounts({ filter }: { filter: OperationFilter }) {
  const counts = await countByStatus(filter);
  const base = filterParams(filter);
  base.delete("status");
  const href = (status?: string) => {
    const p = new URLSearchParams(base);
    if (status) p.set("status", status);
    return `/operations?${p.toString()}`;
  };
  const active = new Set(filter.statuses);
  const chip = "rounded-full border px-3 py-1 text-xs whitespace-nowrap";
  return (
    <nav aria-label="Counts per status" className="flex flex-wrap gap-2" data-testid="status-counts">
      <Link
        href={href()}
        className={`${chip} ${active.size === 0 ? "border-indigo-500" : "border-zinc-300 dark:border-zinc-700"}`}
      >
        all <strong>{counts.total}</strong>
      </Link>
      {OPERATION_STATUSES.map((s) => (
        <Link
          key={s}
          href={href(s)}
          data-testid={`count-${s}`}
          className={`${chip} ${active.has(s) ? "border-indigo-500" : "border-zinc-300 dark:border-zinc-700"}`}
        >
          {s} <strong>{counts[s]}</strong>
        </Link>
      ))}
    </nav>
  );
}
