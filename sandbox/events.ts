import { randomUUID } from "node:crypto";
import { renderEnvelope, success } from "./envelope";
import { writeJson } from "./json";
import { operationWire } from "./operation-view";
import type { MerchantSettings, Operation } from "./types";
import type { WebhookEvent } from "./webhooks";

/**
 * The webhook event of a status change ("Events › Target URL" and "Format"): to the operation's
 * webHook when it is a valid http(s) URL, otherwise to the merchant's default URL, otherwise nowhere.
 * The body is the by-id read in the merchant's envelope, or the bare operation ("bare" body, wire notes),
 * with the merchant's static bearer token when one is configured.
 */

export function isHttpUrl(value: string | null | undefined): value is string {
  if (value === null || value === undefined) return false;
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}

export function webhookTarget(op: Operation, settings: MerchantSettings): string | undefined {
  if (isHttpUrl(op.webHook)) return op.webHook;
  if (isHttpUrl(settings.webhookUrl)) return settings.webhookUrl;
  return undefined;
}

export function buildEvent(op: Operation, settings: MerchantSettings): WebhookEvent | undefined {
  const url = webhookTarget(op, settings);
  if (url === undefined) return undefined;
  const operation = operationWire(op);
  const body =
    settings.webhookBody === "bare"
      ? writeJson(operation)
      : renderEnvelope(success(operation), randomUUID(), settings.dialect, settings.literalRequestId);
  const headers: Record<string, string> = {};
  if (settings.webhookBearerToken !== null && settings.webhookBearerToken !== "")
    headers.authorization = `Bearer ${settings.webhookBearerToken}`;
  return { operationId: op.id, merchantId: op.merchantId, operationStatus: op.status, url, body, headers };
}
