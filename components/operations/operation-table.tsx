"use client";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useTranslations } from "next-intl";
import { OperationCell } from "@/components/operations/operation-cells";
import type { OperationColumn } from "@/lib/operations/list/columns";
import type { OperationListItem } from "@/lib/operations/list/present";
import { ScrollArea } from "@/components/ui/scroll-area";

type LiveAnswer = { ok: true; rows: OperationListItem[]; newCount: number | null; newCountCapped: boolean };

const REFRESH_MS = 5_000;

/**
 * The list page's rows. Every 5 s it asks for the current state of exactly these rows (updated in
 * place, so the page and scroll position stay) and, on the first page, how many newer operations match.
 */
export function OperationTable({
  rows,
  columns,
  tz,
  balanceCurrency,
  filterQuery,
  watchNewerThan,
  firstPageHref,
}: {
  rows: OperationListItem[];
  columns: OperationColumn[];
  tz: string;
  balanceCurrency: string | null;
  filterQuery: string;
  /** Cursor of the newest row on the first page; null on deeper pages. */
  watchNewerThan: string | null;
  firstPageHref: string;
}) {
  const t = useTranslations("operations");
  const ids = rows.map((r) => r.id).join(",");
  const live = useQuery({
    queryKey: ["operations-live", filterQuery, ids, watchNewerThan],
    queryFn: async ({ signal }): Promise<LiveAnswer> => {
      const p = new URLSearchParams(filterQuery);
      p.set("ids", ids);
      if (watchNewerThan) p.set("newerThan", watchNewerThan);
      const response = await fetch(`/api/operations?${p.toString()}`, { signal, cache: "no-store" });
      if (!response.ok) throw new Error(`live refresh answered ${response.status}`);
      return (await response.json()) as LiveAnswer;
    },
    enabled: rows.length > 0 || watchNewerThan !== null,
    refetchInterval: REFRESH_MS,
  });
  const fresh = new Map(live.data?.rows.map((r) => [r.id, r]));
  const newCount = live.data?.newCount ?? 0;

  return (
    <div className="space-y-2">
      {newCount > 0 && (
        <p role="status" className="rounded-md bg-indigo-50 px-3 py-2 text-sm dark:bg-indigo-950">
          {live.data?.newCountCapped
            ? t("table.moreNewOperations", { count: newCount })
            : t("table.newOperations", { count: newCount })}{" "}
          <Link href={firstPageHref} className="font-medium text-indigo-700 underline dark:text-indigo-300">
            {t("table.showThem")}
          </Link>
        </p>
      )}
      {rows.length === 0 ? (
        <p className="rounded-md border border-dashed border-zinc-300 p-6 text-center text-sm text-zinc-600 dark:border-zinc-700 dark:text-zinc-400">
          {t("table.empty")}
        </p>
      ) : (
        <ScrollArea
          label={t("title")}
          className="max-w-full overflow-x-auto rounded-md border border-zinc-200 dark:border-zinc-800"
        >
          <table
            className="min-w-full divide-y divide-zinc-200 text-sm dark:divide-zinc-800"
            data-testid="operations-table"
          >
            <thead className="bg-zinc-100 dark:bg-zinc-900">
              <tr>
                {columns.map((c) => (
                  <th key={c} scope="col" className="whitespace-nowrap px-3 py-2 text-left font-medium">
                    {t(`column.${c}`)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-zinc-100 bg-white dark:divide-zinc-800 dark:bg-zinc-950">
              {rows.map((initial) => {
                const op = fresh.get(initial.id) ?? initial;
                const changed = op.status !== initial.status || op.dateUpdated !== initial.dateUpdated;
                return (
                  <tr
                    key={op.id}
                    data-testid="operation-row"
                    data-changed={changed || undefined}
                    className={changed ? "bg-amber-50 dark:bg-amber-950/40" : undefined}
                  >
                    {columns.map((c) => (
                      <td key={c} className="px-3 py-2 align-top">
                        <OperationCell column={c} op={op} tz={tz} balanceCurrency={balanceCurrency} />
                      </td>
                    ))}
                  </tr>
                );
              })}
            </tbody>
          </table>
        </ScrollArea>
      )}
    </div>
  );
}
