import { NextResponse } from "next/server";
import { z } from "zod";
import { readBodyLimited } from "@/lib/webhooks/read-body";
import { receiveWebhook } from "@/lib/webhooks/receive";
import { sourceIpFrom } from "@/lib/webhooks/source-ip";

export const dynamic = "force-dynamic";

const paramsSchema = z.object({ secret: z.array(z.string().max(200)).max(1).optional() });

// The platform's webhook: stored raw first, answered at once; processing happens in a background job.
// The platform signs nothing, so the checks are the source IP allowlist, the optional bearer token and
// the optional secret path segment (see Settings).
export async function POST(request: Request, context: { params: Promise<{ secret?: string[] }> }) {
  const params = paramsSchema.safeParse(await context.params);
  if (!params.success) return NextResponse.json({ error: "not found" }, { status: 404 });
  const body = await readBodyLimited(request, 1_048_576);
  const result = await receiveWebhook({
    body: body.text,
    bodyBytes: body.bytes,
    headers: request.headers,
    sourceIp: sourceIpFrom(request.headers),
    pathSecret: params.data.secret?.[0] ?? null,
  });
  return NextResponse.json(
    { received: result.httpStatus === 200, id: result.deliveryId.toString() },
    { status: result.httpStatus },
  );
}
