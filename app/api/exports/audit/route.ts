import { audit } from "@/lib/audit/log";
import { exportAuditCsv, parseAuditFilter } from "@/lib/audit/queries";
import { requestPreferences } from "@/lib/auth/request-preferences";
import { withPermission } from "@/lib/auth/route";
import { csvResponse } from "@/lib/csv/stream";
import { getDb } from "@/lib/db";

/** CSV of every audit entry matching the filters (same query parameters as the page), streamed. */
export const GET = withPermission("audit.read", async (request, { actor }) => {
  const params = new URL(request.url).searchParams;
  params.delete("before");
  const { locale, timeZone } = await requestPreferences();
  const parsed = parseAuditFilter(params, locale, timeZone);
  if (!parsed.ok) {
    return Response.json(
      { ok: false, code: "invalid", message: parsed.message, fieldErrors: parsed.fieldErrors },
      { status: 400 },
    );
  }
  const { before: _before, ...filter } = parsed.filter;
  // Exporting the log is itself recorded (before the first row is read).
  await getDb().$transaction((tx) =>
    audit(tx, actor, { action: "audit.export", targetType: "auditLog", after: { filter } }),
  );
  return csvResponse(exportAuditCsv(filter), "audit");
});
