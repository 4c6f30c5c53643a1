import type { Metadata } from "next";
import { getLocale, getTimeZone, getTranslations } from "next-intl/server";
import { Suspense } from "react";
import { ColumnChooser } from "@/components/operations/column-chooser";
import { ExportLink } from "@/components/operations/export-link";
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
import { authorizeSearch, searchRefusalMessage } from "@/lib/operations/list/search-policy";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("operations");
  return { title: t("title") };
}

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

/** Without a time zone in the URL (or with the field left empty) the list is in the user's own zone. */
function withZone(raw: SearchParams, zone: string): SearchParams {
  const given = [raw.tz ?? []].flat().some((v) => v.trim() !== "");
  return given ? raw : { ...raw, tz: zone };
}

export default async function OperationsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const user = await requirePagePermission("operations.read");
  const [t, locale, zone] = await Promise.all([getTranslations("operations"), getLocale(), getTimeZone()]);
  const raw = withZone(await searchParams, zone);
  const parsed = parseOperationFilter(raw, locale);
  const values = formValues(raw);
  const views = await listSavedViews(user.id);

  const refused = (message: string, errors: Record<string, string[]>) => (
    <section className="space-y-4">
      <h1 className="text-2xl font-semibold">{t("title")}</h1>
      <p
        role="alert"
        className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700 dark:bg-red-950 dark:text-red-300"
      >
        {message}
      </p>
      <FiltersForm values={values} errors={errors} zone={zone} />
    </section>
  );
  if (!parsed.ok) return refused(parsed.message, parsed.fieldErrors);
  const search = await authorizeSearch(await actorFor(user), parsed.filter.q, "list");
  if (!search.ok) return refused(t("searchNotRun"), { q: [await searchRefusalMessage(search)] });

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
        <h1 className="text-2xl font-semibold">{t("title")}</h1>
        <div className="flex flex-wrap items-center gap-2">
          <ColumnChooser params={view} columns={filter.cols} />
          {can(user.role, "operations.export") && <ExportLink query={exportQuery} />}
        </div>
      </div>
      <FiltersForm values={values} errors={{}} zone={zone} />
      <SavedViews views={views} currentQuery={view.toString()} />
      <Suspense fallback={<p className="text-sm text-zinc-500">{t("counting")}</p>}>
        <StatusCounts filter={filter} />
      </Suspense>
      <p className="text-xs text-zinc-500">{t("timesIn", { zone: filter.tz })}</p>
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
