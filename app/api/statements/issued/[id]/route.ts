import { z } from "zod";
import { withPermission } from "@/lib/auth/route";
import { translatorFor } from "@/lib/auth/translator";
import { issuedFile } from "@/lib/statements/issue";
import { exportFormats } from "@/lib/statements/document";
import { bytesResponse, renderers } from "@/lib/statements/respond";

const query = z.object({ id: z.uuid(), format: z.enum(exportFormats) });

/** An issued statement's file: the same bytes every time. */
export const GET = withPermission("statements.read", async (request) => {
  const url = new URL(request.url);
  const parsed = query.safeParse({
    id: url.pathname.split("/").filter(Boolean).at(-1),
    format: url.searchParams.get("format"),
  });
  const t = await translatorFor("statements");
  if (!parsed.success)
    return Response.json({ ok: false, code: "invalid", message: t("period.checkIssued") }, { status: 400 });
  const { id, format } = parsed.data;
  const bytes = await issuedFile(id, format, renderers[format]);
  if (!bytes)
    return Response.json(
      { ok: false, code: "not_found", message: t("period.noSuchStatement") },
      { status: 404 },
    );
  return bytesResponse(bytes, format, `statement-${id}`);
});
