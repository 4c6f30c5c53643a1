import type { Metadata } from "next";
import { Suspense } from "react";
import { ColumnChooser } from "@/components/operations/column-chooser";
import { FiltersForm, type FilterFormValues } from "@/components/operations/filters-form";
import { OperationTable } from "@/components/operations/operation-table";
import { Pagination } from "@/components/operations/pagination";
import { SavedViews } from "@/components/operations/saved-views";
import { StatusCounts } from "@/components/operations/status-counts";
import { actorFor } from "@/lib/auth/actor";
import { can } from "@/lib/auth/permissions";
import { requirePagePermission } from "@/lib/auth/session";
import { getBalanceCurrency } from "@/lib/operations/balance-currency";
import { encodeCursor } from "@/lib/operations/list/cursor";
import { filterParams, parseOperationFilter, viewParams } from "@/lib/operations/list/filter";
import { presentListRow } from "@/lib/operations/list/present";
import { listOperations } from "@/lib/operations/list/queries";
import { listSavedViews } from "@/lib/operations/list/saved-views";
import { authorizeSearch } from "@/lib/operations/list/search-policy";

export const metadata: Metadata = { title: "Operations" };

type SearchParams = Record<string, string | string[] | undefined>;

function formValues(raw: SearchParams): FilterFormValues {
  const values: FilterFormValues = {};
  for (const [key, value] of Object.entries(raw)) {
    const list = value === undefined ? [] : Array.isArray(value) ? value : [value];
    if (key === "status") values.status = list.flatMap((v) => v.split(","));
    else values[key] = list[0];
  }
  return values;
}

export default async function OperationsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const user = await requirePagePermission("operations.read");
  const raw = await searchParams;
  const parsed = parseOperationFilter(raw);
  const values = formValues(raw);
  const views = await listSavedViews(user.id);

  const refused = (message: string, errors: Record<string, string[]>) => (
    <section className="space-y-4">
      <h1 className="text-2xl font-semibold">Operations</h1>
      <p
        role="alert"
        className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700 dark:bg-red-950 dark:text-red-300"
      >
        {message}
      </p>
      <FiltersForm values={values} errors={errors} />
    </section>
  );
  if (!parsed.ok) return refused(parsed.message, parsed.fieldErrors);
  const search = await authorizeSearch(await actorFor(user), parsed.filter.q, "list");
  if (!search.ok) return refused("The search was not run.", { q: [search.message] });

  const filter = parsed.filter;
  const [page, balanceCurrency] = await Promise.all([listOperations(filter), getBalanceCurrency()]);
  const rows = page.rows.map(presentListRow);
  const view = viewParams(filter);
  const firstPage = !filter.after && !filter.before;
  const newest = page.rows[0];
  const exportQuery = filterParams(filter).toString();

  return (
    <section className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-2xl font-semibold">Operations</h1>
        <div className="flex flex-wrap items-center gap-2">
          <ColumnChooser params={view} columns={filter.cols} />
          {can(user.role, "operations.export") && (
            <a
              href={`/api/exports/operations${exportQuery ? `?${exportQuery}` : ""}`}
              className="rounded-md border border-zinc-300 px-3 py-2 text-sm hover:bg-zinc-100 dark:border-zinc-700 dark:hover:bg-zinc-800"
              download
            >
              Export CSV
            </a>
          )}
        </div>
      </div>
      <FiltersForm values={values} errors={{}} />
      <SavedViews views={views} currentQuery={view.toString()} />
      <Suspense fallback={<p className="text-sm text-zinc-500">Counting…</p>}>
        <StatusCounts filter={filter} />
      </Suspense>
      <p className="text-xs text-zinc-500">Times in {filter.tz}.</p>
      <OperationTable
        rows={rows}
        columns={filter.cols}
        tz={filter.tz}
        balanceCurrency={balanceCurrency}
        filterQuery={filterParams(filter).toString()}
        watchNewerThan={
          // Counting newer matches re-runs the search every few seconds: not for a (limited) digit search.
          firstPage && newest && !search.digitSearch
            ? encodeCursor({ dateAdded: newest.dateAdded, id: newest.id })
            : null
        }
        firstPageHref={view.toString() ? `/operations?${view.toString()}` : "/operations"}
      />
      <Pagination params={view} prevCursor={page.prevCursor} nextCursor={page.nextCursor} />
    </section>
  );
}
