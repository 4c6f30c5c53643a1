import { audit } from "@/lib/audit/log";
import { withPermission } from "@/lib/auth/route";
import { csvResponse } from "@/lib/csv/stream";
import { getDb } from "@/lib/db";
import { getBalanceCurrency } from "@/lib/operations/balance-currency";
import { databaseKnowsZone, exportOperationsCsv } from "@/lib/operations/export/operations-csv";
import { parseOperationFilter } from "@/lib/operations/list/filter";
import { authorizeSearch, filterForAudit, searchRefusalResponse } from "@/lib/operations/list/search-policy";

/** CSV of every operation matching the filter (same query parameters as the list), streamed. */
export const GET = withPermission("operations.export", async (request, { actor }) => {
  const params = new URL(request.url).searchParams;
  const parsed = parseOperationFilter(params);
  if (!parsed.ok) {
    return Response.json(
      { ok: false, code: "invalid", message: parsed.message, fieldErrors: parsed.fieldErrors },
      { status: 400 },
    );
  }
  if (parsed.filter.after || parsed.filter.before) {
    return Response.json(
      {
        ok: false,
        code: "invalid",
        message: "An export always holds every matching row; remove the page parameters after/before.",
        fieldErrors: { after: ["Not used by the export."] },
      },
      { status: 400 },
    );
  }
  const filter = parsed.filter;
  if (!(await databaseKnowsZone(filter.tz))) {
    return Response.json(
      {
        ok: false,
        code: "invalid",
        message: `The database cannot write dates in the time zone "${filter.tz}"; choose another zone.`,
        fieldErrors: { tz: ["Not known to the database."] },
      },
      { status: 400 },
    );
  }
  const allowed = await authorizeSearch(actor, filter.q, "export");
  if (!allowed.ok) return searchRefusalResponse(allowed);
  await getDb().$transaction((tx) =>
    audit(tx, actor, {
      action: "operations.export",
      targetType: "operations",
      after: { filter: filterForAudit(filter) },
    }),
  );
  return csvResponse(exportOperationsCsv(filter, await getBalanceCurrency()), "operations");
});
