import { getLocale, getTranslations } from "next-intl/server";
import { z } from "zod";
import { withPermission } from "@/lib/auth/route";
import { decodeCursor } from "@/lib/operations/list/cursor";
import { parseOperationFilter } from "@/lib/operations/list/filter";
import { presentListRow } from "@/lib/operations/list/present";
import { countNewer, listOperations, operationsByIds } from "@/lib/operations/list/queries";
import { authorizeSearch, searchRefusalResponse } from "@/lib/operations/list/search-policy";
import { MAX_PAGE_SIZE } from "@/lib/operations/list/filter";

const liveParams = z.object({
  ids: z
    .string()
    .transform((s) => s.split(",").filter(Boolean))
    .pipe(z.array(z.uuid("ids must be operation ids.")).max(MAX_PAGE_SIZE))
    .optional(),
  newerThan: z
    .string()
    .refine((s) => decodeCursor(s) !== null, "newerThan must be a list cursor.")
    .transform((s) => decodeCursor(s)!)
    .optional(),
});

/**
 * JSON for the list's live refresh. With the filter only: one page (like the list). With `ids`: the
 * current state of those rows. With `newerThan`: how many matching operations are newer than it.
 */
export const GET = withPermission("operations.read", async (request, { actor }) => {
  const params = new URL(request.url).searchParams;
  const live = liveParams.safeParse({
    ids: params.get("ids") ?? undefined,
    newerThan: params.get("newerThan") ?? undefined,
  });
  params.delete("ids");
  params.delete("newerThan");
  const parsed = parseOperationFilter(params, await getLocale());
  if (!live.success || !parsed.ok) {
    const fieldErrors = {
      ...(parsed.ok ? {} : parsed.fieldErrors),
      ...(live.success ? {} : z.flattenError(live.error).fieldErrors),
    };
    const t = await getTranslations("operations.filter");
    return Response.json(
      { ok: false, code: "invalid", message: t("parametersInvalid"), fieldErrors },
      { status: 400 },
    );
  }
  const { ids, newerThan } = live.data;
  const filter = parsed.filter;
  // With `ids` alone the filter's search does not run (the rows are read by id).
  if (!ids || newerThan) {
    const allowed = await authorizeSearch(actor, filter.q, "api");
    if (!allowed.ok) return searchRefusalResponse(allowed);
  }
  const [page, newer] = await Promise.all([
    ids
      ? operationsByIds(ids).then((rows) => ({ rows, nextCursor: null, prevCursor: null }))
      : listOperations(filter),
    newerThan ? countNewer(filter, newerThan) : null,
  ]);
  return Response.json({
    ok: true,
    rows: page.rows.map(presentListRow),
    nextCursor: page.nextCursor,
    prevCursor: page.prevCursor,
    newCount: newer?.count ?? null,
    newCountCapped: newer?.capped ?? false,
  });
});
