import "server-only";
import type { IncomingMessage, ServerResponse } from "node:http";
import { getEnv } from "@/lib/env";
import { clientIpOfRequest } from "@/lib/http/client-ip";
import { answerFor, notStored, USE_POST, type WebhookAnswer } from "@/lib/webhooks/answer";
import { readBodyLimited } from "@/lib/webhooks/read-body";
import { receiveWebhook } from "@/lib/webhooks/receive";
import { refusedLimit, type RefusedLimit } from "@/lib/webhooks/refused-limit";

// `/api/webhooks/platform`, optionally followed by one secret segment (see Settings); the query is ignored.
const WEBHOOK_PATH = /^\/api\/webhooks\/platform(?:\/([^/?#]{1,200}))?\/?(?:\?.*)?$/;

/** The secret path segment (or "" for none) when the URL is the webhook endpoint; null otherwise. */
function webhookPathSegment(url: string | undefined): string | null {
  const match = url ? WEBHOOK_PATH.exec(url) : null;
  if (!match) return null;
  try {
    return decodeURIComponent(match[1] ?? "");
  } catch {
    return null;
  }
}

export type ReceiverOptions = {
  /** TRUSTED_PROXIES: peers whose X-Forwarded-For entry names the client (lib/http/client-ip). */
  trustedProxies?: readonly string[];
  /** The per-source limit of refused requests (the process's own by default). */
  refusedLimit?: RefusedLimit;
};

/** Answers the request when it is for the webhook endpoint (true); leaves it alone otherwise (false). */
export function handleIfWebhook(
  request: IncomingMessage,
  response: ServerResponse,
  options: ReceiverOptions = {},
): boolean {
  const secret = webhookPathSegment(request.url);
  if (secret === null) return false;
  void handleWebhookRequest(request, response, secret, options);
  return true;
}

function headerLookup(request: IncomingMessage) {
  return {
    get(name: string): string | null {
      const value = request.headers[name];
      if (value === undefined) return null;
      return Array.isArray(value) ? value.join(", ") : value;
    },
  };
}

function reply(response: ServerResponse, answer: WebhookAnswer) {
  // A body left unread (refused, oversized) would hold the connection: it is closed after the answer.
  const close = response.req.complete ? {} : { connection: "close" };
  response
    .writeHead(answer.status, { "content-type": "application/json", ...close, ...answer.headers })
    .end(JSON.stringify(answer.body));
}

/**
 * The platform's webhook, answered by plain node:http ahead of Next.js: stored raw first, answered at
 * once; processing happens in a background job. The platform signs nothing, so the checks are the
 * source IP allowlist, the optional bearer token and the optional secret path segment.
 */
async function handleWebhookRequest(
  request: IncomingMessage,
  response: ServerResponse,
  pathSecret: string,
  options: ReceiverOptions,
): Promise<void> {
  if (request.method !== "POST") return reply(response, USE_POST);
  try {
    const result = await receiveWebhook(
      {
        readBody: (maxBytes) => readBodyLimited(request, maxBytes),
        headers: headerLookup(request),
        sourceIp: clientIpOfRequest(request, options.trustedProxies ?? getEnv().TRUSTED_PROXIES),
        pathSecret: pathSecret || null,
      },
      undefined,
      options.refusedLimit ?? refusedLimit(),
    );
    reply(response, answerFor(result));
  } catch (error) {
    const answer = notStored(error);
    if (!response.headersSent) reply(response, answer);
  }
}
