/**
 * Call records (ApiCall): one per HTTP attempt, successful or not. This is what support searches by
 * traceID. Request bodies are stored masked: recipient numbers keep their last four characters; the
 * token is never part of a record (it only ever travels in the Authorization header).
 * The database-backed recorder lives in record-to-db.ts.
 */
import "server-only";
import type { Dialect } from "./envelope";
import { isWireObject, stringifyWire, type WireValue } from "./wire";

export interface ApiCallRecord {
  method: "GET" | "POST";
  /** Path relative to the base URL, e.g. "/host2host/payout". */
  path: string;
  /** Request body as sent, with recipient numbers masked; null for GET. */
  requestBody: string | null;
  /** Response body as received, recipient numbers masked, cut at RESPONSE_BODY_LIMIT; null without an answer. */
  responseBody: string | null;
  /** null when no HTTP answer arrived (network error, timeout). */
  httpStatus: number | null;
  envelopeStatus: string | null;
  codeError: string | null;
  message: string | null;
  traceID: string | null;
  latencyMs: number;
  /** Staff user who caused the call. */
  actorUserId: string | null;
  /** Platform operation id: from the call context, or from the response data.id. */
  operationId: string | null;
  idTransactionMerchant: string | null;
  /** Transport/protocol error text (redacted) when the attempt failed without a business answer. */
  error: string | null;
  startedAt: Date;
  dialect: Dialect | null;
  /** 1-based attempt number (reads may retry). */
  attempt: number;
}

export interface ApiCallRecorder {
  record(call: ApiCallRecord): Promise<void> | void;
}

export const noopRecorder: ApiCallRecorder = { record: () => undefined };

/** Fields holding recipient details (card, phone, account) wherever they appear in a body. */
const MASKED_KEYS = new Set(["number", "numberAdditional"]);

/** `4111111111111234` -> `************1234`; values of four characters or fewer are fully masked. */
export function maskNumber(value: string): string {
  const keep = value.length > 4 ? 4 : 0;
  return "*".repeat(value.length - keep) + value.slice(value.length - keep);
}

function maskValue(value: WireValue): WireValue {
  if (Array.isArray(value)) return value.map(maskValue);
  if (!isWireObject(value)) return value;
  const out: { [key: string]: WireValue } = {};
  for (const [key, v] of Object.entries(value)) {
    out[key] = MASKED_KEYS.has(key) && typeof v === "string" ? maskNumber(v) : maskValue(v);
  }
  return out;
}

/** The JSON text to store for a request body: recipient numbers masked, amounts exact. */
export function maskRequestBody(body: WireValue | undefined): string | null {
  if (body === undefined) return null;
  return stringifyWire(maskValue(body));
}

/** Long responses (list pages) are stored cut: enough to read the envelope and the first records. */
export const RESPONSE_BODY_LIMIT = 16_384;

const MASKED_TEXT = /"(number|numberAdditional)"(\s*:\s*)"([^"\\]*)"/g;

/**
 * The text to store for a response: cut first (list pages are large and only their start is kept),
 * then recipient numbers masked in the text itself, so no large body is parsed twice.
 */
export function maskResponseBody(text: string, redact: (s: string) => string = (s) => s): string {
  const cut =
    text.length > RESPONSE_BODY_LIMIT
      ? `${text.slice(0, RESPONSE_BODY_LIMIT)}… [cut: ${text.length} characters in all]`
      : text;
  return redact(
    cut.replace(
      MASKED_TEXT,
      (_m, key: string, sep: string, value: string) => `"${key}"${sep}"${maskNumber(value)}"`,
    ),
  );
}
