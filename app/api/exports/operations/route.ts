import { getLocale, getTranslations } from "next-intl/server";
import { z } from "zod";
import { audit } from "@/lib/audit/log";
import { withPermission } from "@/lib/auth/route";
import { csvResponse } from "@/lib/csv/stream";
import { getDb } from "@/lib/db";
import { inExportSlot } from "@/lib/operations/export/slots";
import { getBalanceCurrency } from "@/lib/operations/balance-currency";
import {
  exportHeader,
  exportOperationsCsv,
  localizedExportHeader,
} from "@/lib/operations/export/operations-csv";
import { parseOperationFilter } from "@/lib/operations/list/filter";
import { authorizeSearch, filterForAudit, searchRefusalResponse } from "@/lib/operations/list/search-policy";

/**
 * The header row: the stable field names (the default: scripts and spreadsheets read them) or the
 * column titles in the reader's language. Given once at most.
 */
const headerChoice = z
  .array(z.enum(["machine", "language"]))
  .max(1)
  .transform((list) => list[0] ?? "machine");

/** CSV of every operation matching the filter (same query parameters as the list), streamed. */
export const GET = withPermission("operations.export", async (request, { user, actor }) => {
  const params = new URL(request.url).searchParams;
  const header = headerChoice.safeParse(params.getAll("header"));
  params.delete("header");
  const parsed = parseOperationFilter(params, await getLocale());
  const t = await getTranslations("operations.export");
  if (!parsed.ok || !header.success) {
    const fieldErrors = {
      ...(parsed.ok ? {} : parsed.fieldErrors),
      ...(header.success ? {} : { header: [t("headersInvalid")] }),
    };
    const message = parsed.ok ? t("headersInvalid") : parsed.message;
    return Response.json({ ok: false, code: "invalid", message, fieldErrors }, { status: 400 });
  }
  if (parsed.filter.after || parsed.filter.before) {
    return Response.json(
      {
        ok: false,
        code: "invalid",
        message: t("pagingNotUsed"),
        fieldErrors: { after: [t("notUsed")] },
      },
      { status: 400 },
    );
  }
  const filter = parsed.filter;
  const allowed = await authorizeSearch(actor, filter.q, "export");
  if (!allowed.ok) return searchRefusalResponse(allowed);
  return inExportSlot(user.id, async () => {
    await getDb().$transaction((tx) =>
      audit(tx, actor, {
        action: "operations.export",
        targetType: "operations",
        after: { filter: filterForAudit(filter) },
      }),
    );
    const headerRow = header.data === "language" ? await localizedExportHeader() : exportHeader;
    return csvResponse(exportOperationsCsv(filter, await getBalanceCurrency(), headerRow), "operations");
  });
});
