import "server-only";
import { storeInboxRow } from "@/lib/webhooks/inbox-writer";
import { getEnv } from "@/lib/env";
import type { WebhookOutcome } from "@/lib/generated/prisma/enums";
import { ipAllowed } from "@/lib/http/ip-allowlist";
import { sameSecret } from "@/lib/http/same-secret";
import { parseWebhookBody, WebhookBodyError } from "@/lib/platform/webhook-body";
import { getSettings } from "@/lib/settings/settings";
import { requiredWebhookPathSecret } from "@/lib/webhooks/path-secret";
import { readTextLimited, type BodyRead } from "@/lib/webhooks/read-body";
import type { RefusedLimit } from "@/lib/webhooks/refused-limit";
import { storableValue } from "@/lib/storable-text";
import { bodyErrorNote, storedNote, type Cut, type OutcomeNote } from "@/lib/webhooks/outcome-notes";

// Refused (401/403/404) and malformed or oversized (400) requests are kept for audit with their
// metadata and only this much of the body: nobody outside may fill the database through them.
export const REFUSED_BODY_KEPT = 4096;
const KEPT_HEADERS = ["content-type", "content-length", "user-agent", "x-forwarded-for", "x-request-id"];

type IncomingRequest = {
  headers: { get(name: string): string | null };
  sourceIp: string | null;
  /** The secret path segment the request used, if any. */
  pathSecret: string | null;
};

/**
 * A webhook request: its whole body in memory, or a reader that reads at most `maxBytes` of it
 * (the HTTP receiver: a refused request's body is not read beyond what is kept).
 */
export type IncomingWebhook = IncomingRequest &
  ({ body: string; bodyBytes: number } | { readBody: (maxBytes: number) => Promise<BodyRead> });

export type ReceiveResult = {
  httpStatus: 200 | 400 | 401 | 403 | 404;
  deliveryId: bigint;
  outcome: WebhookOutcome;
};

/** Too many refused requests from this source this minute: nothing read, nothing stored. */
export type LimitedResult = { httpStatus: 429; deliveryId: null; outcome: null };
const limited: LimitedResult = { httpStatus: 429, deliveryId: null, outcome: null };

type Verdict = { httpStatus: 200 | 400 | 401 | 403 | 404; outcome: WebhookOutcome; note: OutcomeNote | null };

function keptHeaders(headers: IncomingWebhook["headers"]) {
  const kept: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const value = headers.get(name);
    if (value !== null) kept[name] = value;
  }
  kept.authorization = headers.get("authorization") !== null ? "[present]" : "[absent]";
  return kept;
}

export type ReceiveConfig = { pathSecret: string | null; maxBodyBytes: number };

/** The secret path segment is required unless the admin chose an open endpoint (see path-secret.ts). */
async function configuredReceiver(): Promise<ReceiveConfig> {
  return { pathSecret: await requiredWebhookPathSecret(), maxBodyBytes: getEnv().WEBHOOK_MAX_BODY_BYTES };
}

/** The checks that need no body: secret path, source IP, bearer token. Null when they pass. */
async function refusalOf(incoming: IncomingRequest, config: ReceiveConfig): Promise<Verdict | null> {
  const settings = await getSettings();
  if (config.pathSecret && !sameSecret(incoming.pathSecret, config.pathSecret)) {
    return { httpStatus: 404, outcome: "rejected", note: { code: "wrongPathSecret", args: {} } };
  }
  if (!ipAllowed(incoming.sourceIp, settings.webhookAllowedIps)) {
    const note: OutcomeNote = { code: "ipNotAllowed", args: { ip: incoming.sourceIp } };
    return { httpStatus: 403, outcome: "rejected", note };
  }
  if (
    settings.webhookBearerToken &&
    !sameSecret(incoming.headers.get("authorization"), `Bearer ${settings.webhookBearerToken}`)
  ) {
    return { httpStatus: 401, outcome: "rejected", note: { code: "wrongBearerToken", args: {} } };
  }
  return null;
}

/** The declared Content-Length, when it is a plain number. */
function declaredLength(headers: IncomingRequest["headers"]): number | null {
  const value = headers.get("content-length")?.trim();
  return value && /^\d{1,15}$/.test(value) ? Number(value) : null;
}

function readBody(incoming: IncomingWebhook, maxBytes: number): Promise<BodyRead> {
  if ("readBody" in incoming) return incoming.readBody(maxBytes);
  return Promise.resolve(readTextLimited(incoming.body, incoming.bodyBytes, maxBytes));
}

/** `bytes` is null when the body ran past the limit with no declared length. */
function oversized(bytes: number | null, config: ReceiveConfig): Verdict {
  const note: OutcomeNote = { code: "bodyTooLarge", args: { bytes, limit: config.maxBodyBytes } };
  return { httpStatus: 400, outcome: "malformed", note };
}

/**
 * Checks a webhook request and persists it raw before anything else; processing happens in a job.
 * A delivery that passes the checks is read and kept whole, and is never rate-limited. A refused,
 * oversized or malformed one keeps its metadata and the first REFUSED_BODY_KEPT bytes; past `limit`
 * such requests per source and minute, nothing is read or stored (429).
 */
export function receiveWebhook(incoming: IncomingWebhook, config?: ReceiveConfig): Promise<ReceiveResult>;
export function receiveWebhook(
  incoming: IncomingWebhook,
  config: ReceiveConfig | undefined,
  limit: RefusedLimit,
): Promise<ReceiveResult | LimitedResult>;
export async function receiveWebhook(
  incoming: IncomingWebhook,
  given?: ReceiveConfig,
  limit: RefusedLimit | null = null,
): Promise<ReceiveResult | LimitedResult> {
  const config = given ?? (await configuredReceiver());
  const declared = "readBody" in incoming ? declaredLength(incoming.headers) : incoming.bodyBytes;
  let verdict =
    (await refusalOf(incoming, config)) ??
    (declared !== null && declared > config.maxBodyBytes ? oversized(declared, config) : null);
  let body: BodyRead;
  let parsed: ReturnType<typeof parseWebhookBody> | null = null;

  if (verdict) {
    if (limit && !limit.allow(incoming.sourceIp)) return limited;
    body = await readBody(incoming, REFUSED_BODY_KEPT);
  } else {
    body = await readBody(incoming, config.maxBodyBytes);
    if (!body.complete) verdict = oversized(declared, config);
    else if (body.text.includes("\u0000")) {
      // PostgreSQL text cannot hold NUL: kept for audit with U+FFFD in place of each NUL.
      verdict = {
        httpStatus: 400,
        outcome: "malformed",
        note: { code: "bodyHasNul", args: {} },
      };
    } else {
      try {
        parsed = parseWebhookBody(body.text);
        verdict = { httpStatus: 200, outcome: "received", note: null };
      } catch (error) {
        if (!(error instanceof WebhookBodyError)) throw error;
        verdict = { httpStatus: 400, outcome: "malformed", note: bodyErrorNote(error) };
      }
    }
    if (verdict.httpStatus !== 200 && limit && !limit.allow(incoming.sourceIp)) {
      return limited;
    }
  }

  const kept = keptBody(body, verdict, declared);
  const { text, bytes } = kept;
  // A note may quote the body (a path in bodyUnstorableText): stored with U+FFFD in place of anything
  // jsonb refuses, like the body's NUL below.
  const note = kept.note && storableValue(kept.note);
  const deliveryId = await storeInboxRow({
    sourceIp: incoming.sourceIp,
    headers: keptHeaders(incoming.headers),
    body: text.replaceAll("\u0000", "\uFFFD"),
    bodyBytes: bytes,
    outcome: verdict.outcome,
    ...storedNote(note),
    operationId: parsed?.operation.id ?? null,
    operationStatus: parsed?.operation.status ?? null,
    traceID: parsed?.traceID ?? null,
    processedAt: verdict.outcome === "received" ? null : new Date(),
  });
  return { httpStatus: verdict.httpStatus, deliveryId, outcome: verdict.outcome };
}

/** What is stored of the body: all of an accepted one; the first REFUSED_BODY_KEPT bytes otherwise. */
function keptBody(body: BodyRead, verdict: Verdict, declared: number | null) {
  // A body whose reading stopped early: its declared length, when that is not less than what came.
  const bytes = body.complete ? body.bytes : Math.max(body.bytes, declared ?? 0);
  if (verdict.outcome === "received") return { text: body.text, bytes, note: verdict.note };
  const cut = Buffer.byteLength(body.text) > REFUSED_BODY_KEPT || !body.complete;
  if (!cut) return { text: body.text, bytes, note: verdict.note };
  const text = Buffer.from(body.text).subarray(0, REFUSED_BODY_KEPT).toString("utf8");
  const totalKind = body.complete ? "exact" : declared !== null ? "declared" : "atLeast";
  const kept: Cut = { cut: { kept: REFUSED_BODY_KEPT, total: bytes, totalKind } };
  const note = verdict.note && ({ ...verdict.note, args: { ...verdict.note.args, ...kept } } as OutcomeNote);
  return { text, bytes, note };
}
