/**
 * Webhook bodies. The spec sends the operation inside the response envelope; one integration received
 * the bare operation. Accepted: spec envelope, nested envelope, bare operation. Numbers stay exact.
 * The caller stores the raw text first (request.text()), then parses.
 */
import "server-only";
import { readEnvelope } from "./envelope";
import { SchemaMismatchError, decodeOperation, describeIssues, type Operation } from "./schemas";
import { isWireObject, parseWireJson, type WireValue } from "./wire";

export type WebhookBodyForm = "envelope" | "nested" | "bare";

export interface WebhookBody {
  operation: Operation;
  traceID: string | null;
  form: WebhookBodyForm;
}

export type WebhookBodyErrorReason =
  "empty" | "not-json" | "not-an-object" | "not-success" | "no-operation" | "invalid-operation";

export class WebhookBodyError extends Error {
  override readonly name = "WebhookBodyError";
  constructor(
    readonly reason: WebhookBodyErrorReason,
    message: string,
    readonly traceID: string | null = null,
    /** The facts behind the message, for a note worded in the reader's language (outcome-notes.ts). */
    readonly facts: { detail?: string; status?: string; codeError?: string | null } = {},
  ) {
    super(message);
  }
}

export function parseWebhookBody(text: string): WebhookBody {
  if (text.trim() === "") throw new WebhookBodyError("empty", "Webhook body is empty");
  let value: WireValue;
  try {
    value = parseWireJson(text);
  } catch (e) {
    const detail = e instanceof Error ? e.message : String(e);
    throw new WebhookBodyError("not-json", `Webhook body is not JSON: ${detail}`, null, { detail });
  }
  if (!isWireObject(value)) throw new WebhookBodyError("not-an-object", "Webhook body is not a JSON object");

  const envelope = readEnvelope(value);
  if (envelope) {
    const form: WebhookBodyForm = envelope.dialect === "nested" ? "nested" : "envelope";
    if (!envelope.ok) {
      throw new WebhookBodyError(
        "not-success",
        `Webhook envelope has status ${envelope.status} (${envelope.codeError ?? "no code"})`,
        envelope.traceID,
        { status: String(envelope.status), codeError: envelope.codeError ?? null },
      );
    }
    if (!isWireObject(envelope.data))
      throw new WebhookBodyError(
        "no-operation",
        "Webhook envelope carries no operation object",
        envelope.traceID,
      );
    return { operation: decode(envelope.data, envelope.traceID), traceID: envelope.traceID, form };
  }
  return { operation: decode(value, null), traceID: null, form: "bare" };
}

function decode(value: WireValue, traceID: string | null): Operation {
  // An escaped \u0000 passes the receiver's check for raw NUL bytes; PostgreSQL text cannot hold it,
  // so the mirror could never store the operation: refused here, on receipt, with the field named.
  const nul = fieldWithNul(value);
  if (nul !== null) {
    const detail = `${nul}: holds a NUL character (\\u0000)`;
    throw new WebhookBodyError("invalid-operation", `Webhook operation ${detail}`, traceID, { detail });
  }
  try {
    return decodeOperation(value, "webhook operation");
  } catch (e) {
    if (e instanceof SchemaMismatchError) {
      throw new WebhookBodyError("invalid-operation", e.message, traceID, {
        detail: describeIssues(e.issues),
      });
    }
    throw e;
  }
}

/** The path of the first string (or key) that holds U+0000, or null. */
function fieldWithNul(value: WireValue, path = ""): string | null {
  if (typeof value === "string") return value.includes("\u0000") ? path : null;
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = fieldWithNul(item, `${path}[${i}]`);
      if (found !== null) return found;
    }
    return null;
  }
  if (!isWireObject(value)) return null;
  for (const [key, item] of Object.entries(value)) {
    const at = path ? `${path}.${key}` : key;
    if (key.includes("\u0000")) return at.replaceAll("\u0000", "\\u0000");
    const found = fieldWithNul(item, at);
    if (found !== null) return found;
  }
  return null;
}
