import "server-only";
import { Readable } from "node:stream";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import { clientIpFromHeaders } from "@/lib/http/client-ip";
import { answerFor, notStored, type WebhookAnswer } from "@/lib/webhooks/answer";
import { readBodyLimited } from "@/lib/webhooks/read-body";
import { receiveWebhook } from "@/lib/webhooks/receive";
import { refusedLimit } from "@/lib/webhooks/refused-limit";

/**
 * The webhook endpoint as a Next.js route handler (app/api/webhooks/platform/[[...secret]]): the same
 * receiveWebhook as the node:http fast path of scripts/server.ts, for hosts that run Next.js without
 * that server. The client IP comes from the header scripts/server.ts writes; without it the IP is
 * unknown, so an IP allowlist refuses (lib/http/client-ip).
 */
export async function receiveWebhookRoute(
  request: Request,
  segments: string[] | undefined,
): Promise<Response> {
  // One optional secret segment, like the fast path's `/api/webhooks/platform[/<secret>]`.
  if (segments && segments.length > 1)
    return respond({ status: 404, body: { error: "not found" }, headers: {} });
  let answer: WebhookAnswer;
  try {
    const result = await receiveWebhook(
      {
        readBody: (maxBytes) =>
          request.body
            ? readBodyLimited(Readable.fromWeb(request.body as NodeReadableStream), maxBytes)
            : Promise.resolve({ text: "", bytes: 0, complete: true }),
        headers: request.headers,
        sourceIp: clientIpFromHeaders(request.headers),
        pathSecret: segments?.[0] ?? null,
      },
      undefined,
      refusedLimit(),
    );
    answer = answerFor(result);
  } catch (error) {
    answer = notStored(error);
  }
  return respond(answer);
}

function respond(answer: WebhookAnswer): Response {
  return Response.json(answer.body, { status: answer.status, headers: answer.headers });
}
