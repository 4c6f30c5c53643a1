import { withPermission } from "@/lib/auth/route";
import { getPayoutProgress } from "@/lib/payouts/queries";
import { payoutIdSchema } from "@/lib/payouts/schemas";

/** The pay-out page's live status while the request is on its way to the platform (payouts.read). */
export async function GET(request: Request, context: { params: Promise<{ id: string }> }) {
  const { id } = await context.params;
  return withPermission("payouts.read", async () => {
    const parsed = payoutIdSchema.safeParse({ id });
    if (!parsed.success) {
      return Response.json(
        { ok: false, code: "invalid", message: "Not a pay-out request id." },
        { status: 400 },
      );
    }
    const progress = await getPayoutProgress(parsed.data.id);
    if (!progress) {
      return Response.json(
        { ok: false, code: "not_found", message: "No such pay-out request." },
        { status: 404 },
      );
    }
    return Response.json({ ok: true, ...progress }, { headers: { "cache-control": "no-store" } });
  })(request);
}
