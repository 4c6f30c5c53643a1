import "server-only";
import { getLog } from "@/lib/log";
import type { LimitedResult, ReceiveResult } from "@/lib/webhooks/receive";

/** What the webhook endpoint answers, whichever server received the request. */
export type WebhookAnswer = { status: number; body: object; headers: Record<string, string> };

export const USE_POST: WebhookAnswer = {
  status: 405,
  body: { error: "use POST" },
  headers: { allow: "POST" },
};

export function answerFor(result: ReceiveResult | LimitedResult): WebhookAnswer {
  if (result.httpStatus === 429) {
    return {
      status: 429,
      body: { error: "too many refused requests from this source" },
      headers: { "retry-after": "60" },
    };
  }
  return {
    status: result.httpStatus,
    body: { received: result.httpStatus === 200, id: result.deliveryId.toString() },
    headers: {},
  };
}

/** Not stored, so not acknowledged: the platform delivers it again. */
export function notStored(error: unknown): WebhookAnswer {
  getLog().error({ err: error }, "webhook could not be stored");
  return { status: 503, body: { error: "webhook not stored; deliver it again" }, headers: {} };
}
