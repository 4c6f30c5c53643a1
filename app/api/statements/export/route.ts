import { audit } from "@/lib/audit/log";
import { withPermission } from "@/lib/auth/route";
import { getDb } from "@/lib/db";
import { inExportSlot } from "@/lib/operations/export/slots";
import { requestPreferences } from "@/lib/auth/request-preferences";
import { translatorFor } from "@/lib/auth/translator";
import { liveStatementResponse } from "@/lib/statements/respond";
import { exportQuerySchema } from "@/lib/statements/export-query";
import { resolvePeriod } from "@/lib/statements/periods";

/** A statement of any period as CSV, XLSX or PDF, streamed from the ledger as it is now. */
export const GET = withPermission("statements.read", async (request, { user, actor }) => {
  const t = await translatorFor("statements");
  const parsed = exportQuerySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!parsed.success) {
    return Response.json({ ok: false, code: "invalid", message: t("period.checkQuery") }, { status: 400 });
  }
  const resolved = resolvePeriod(parsed.data);
  if (!resolved.ok)
    return Response.json(
      { ok: false, code: "invalid", message: t(`period.${resolved.problem}`) },
      { status: 400 },
    );
  return inExportSlot(user.id, async () => {
    await getDb().$transaction((tx) =>
      audit(tx, actor, {
        action: "statements.export",
        targetType: "statement",
        after: {
          from: resolved.period.from.toISOString(),
          to: resolved.period.to.toISOString(),
          tz: resolved.period.tz,
          format: parsed.data.format,
        },
      }),
    );
    return liveStatementResponse(
      resolved.period,
      user.email,
      (await requestPreferences()).locale,
      parsed.data.format,
      `statement-${resolved.label}`,
    );
  });
});
