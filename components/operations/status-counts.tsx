import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { statusLabel } from "@/components/operations/labels";
import { filterParams, type OperationFilter } from "@/lib/operations/list/filter";
import { countByStatus } from "@/lib/operations/list/queries";
import { OPERATION_STATUSES } from "@/lib/platform/schemas";

/** How many operations of the current filter are in each status; each count filters by that status. */
export async function StatusCounts({ filter }: { filter: OperationFilter }) {
  const [counts, t, names] = await Promise.all([
    countByStatus(filter),
    getTranslations("operations.statusCounts"),
    getTranslations("statuses"),
  ]);
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
    <nav aria-label={t("label")} className="flex flex-wrap gap-2" data-testid="status-counts">
      <Link
        href={href()}
        className={`${chip} ${active.size === 0 ? "border-indigo-500" : "border-zinc-300 dark:border-zinc-700"}`}
      >
        {t("all")} <strong>{counts.total}</strong>
      </Link>
      {OPERATION_STATUSES.map((s) => (
        <Link
          key={s}
          href={href(s)}
          data-testid={`count-${s}`}
          className={`${chip} ${active.has(s) ? "border-indigo-500" : "border-zinc-300 dark:border-zinc-700"}`}
        >
          {statusLabel(names, s)} <strong>{counts[s]}</strong>
        </Link>
      ))}
    </nav>
  );
}
