import "server-only";
import { timingSafeEqual } from "node:crypto";
import { storeInboxRow } from "@/lib/webhooks/inbox-writer";
import { getEnv } from "@/lib/env";
import type { WebhookOutcome } from "@/lib/generated/prisma/enums";
import { parseWebhookBody, WebhookBodyError } from "@/lib/platform/webhook-body";
import { getSettings } from "@/lib/settings/settings";
import { requiredWebhookPathSecret } from "@/lib/webhooks/path-secret";
import { ipAllowed } from "@/lib/webhooks/source-ip";

// Bodies above the limit are answered 400 and kept (up to this many characters) for audit.
export const STORED_BODY_LIMIT = 1_048_576;
const KEPT_HEADERS = ["content-type", "content-length", "user-agent", "x-forwarded-for", "x-request-id"];

export type IncomingWebhook = {
  body: string;
  bodyBytes: number;
  headers: { get(name: string): string | null };
  sourceIp: string | null;
  /** The secret path segment the request used, if any. */
  pathSecret: string | null;
};

export type ReceiveResult = {
  httpStatus: 200 | 400 | 401 | 403 | 404;
  deliveryId: bigint;
  outcome: WebhookOutcome;
};

function sameSecret(given: string | null, expected: string): boolean {
  if (given === null) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

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

/** Checks a webhook request and persists it raw before anything else; processing happens in a job. */
export async function receiveWebhook(
  incoming: IncomingWebhook,
  given?: ReceiveConfig,
): Promise<ReceiveResult> {
  const config = given ?? (await configuredReceiver());
  const settings = await getSettings();
  let httpStatus: ReceiveResult["httpStatus"] = 200;
  let outcome: WebhookOutcome = "received";
  let detail: string | null = null;
  let parsed: ReturnType<typeof parseWebhookBody> | null = null;

  if (config.pathSecret && !sameSecret(incoming.pathSecret, config.pathSecret)) {
    [httpStatus, outcome, detail] = [404, "rejected", "wrong or missing secret path segment"];
  } else if (!ipAllowed(incoming.sourceIp, settings.webhookAllowedIps)) {
    [httpStatus, outcome, detail] = [
      403,
      "rejected",
      `source IP ${incoming.sourceIp ?? "unknown"} is not in the allowlist`,
    ];
  } else if (
    settings.webhookBearerToken &&
    !sameSecret(incoming.headers.get("authorization"), `Bearer ${settings.webhookBearerToken}`)
  ) {
    [httpStatus, outcome, detail] = [401, "rejected", "missing or wrong bearer token"];
  } else if (incoming.bodyBytes > config.maxBodyBytes) {
    [httpStatus, outcome, detail] = [
      400,
      "malformed",
      `body of ${incoming.bodyBytes} bytes exceeds ${config.maxBodyBytes}`,
    ];
  } else {
    try {
      parsed = parseWebhookBody(incoming.body);
    } catch (error) {
      if (!(error instanceof WebhookBodyError)) throw error;
      [httpStatus, outcome, detail] = [400, "malformed", error.message];
    }
  }

  const row = {
    sourceIp: incoming.sourceIp,
    headers: keptHeaders(incoming.headers),
    body: incoming.body.slice(0, STORED_BODY_LIMIT),
    bodyBytes: incoming.bodyBytes,
    outcome,
    outcomeDetail: detail,
    operationId: parsed?.operation.id ?? null,
    operationStatus: parsed?.operation.status ?? null,
    traceID: parsed?.traceID ?? null,
    processedAt: outcome === "received" ? null : new Date(),
  };
  if (row.body.includes("\u0000")) {
    // PostgreSQL text cannot hold NUL: keep the request for audit with U+FFFD in place of each NUL.
    const deliveryId = await storeInboxRow({
      ...row,
      body: row.body.replaceAll("\u0000", "\uFFFD"),
      outcome: "malformed",
      outcomeDetail: "body contains NUL characters (stored with U+FFFD in their place)",
      operationId: null,
      operationStatus: null,
      processedAt: new Date(),
    });
    return { httpStatus: 400, deliveryId, outcome: "malformed" };
  }
  const deliveryId = await storeInboxRow(row);
  return { httpStatus, deliveryId, outcome };
}
