/**
 * The response envelope, in both dialects, detected per response:
 *
 *   spec:   {"status":"Success","data":...,"codeError"?,"message"?,"traceID":"...","totalNumberRecords"?}
 *   nested: {"result":{"status":"success","x-request-id":"...","codeError":"none","codeErrorExt":"none",
 *            "message":""},"data":...,"totalNumberRecords":0}
 *
 * Both map to one NormalisedEnvelope. Status is compared case-insensitively; anything but "success" is
 * a failed call and keeps its text. Nested code = codeErrorExt unless "none", else codeError unless
 * "none" (codeError there is only a coarse class, kept as codeErrorClass).
 * Bodies that are neither (problem JSON, HTML, empty) become a PlatformError that keeps the HTTP status
 * and the start of the body.
 */
import "server-only";
import { PlatformError, type PlatformErrorKind } from "./errors";
import { integerFromWire, isWireObject, parseWireJson, type WireObject, type WireValue } from "./wire";

export type Dialect = "spec" | "nested";

export interface NormalisedEnvelope {
  ok: boolean;
  /** Status text as received (`Success`, `warning`, `AuthError`, `accessError`...). */
  status: string;
  /** Payload, numbers lossless; null when absent. */
  data: WireValue;
  codeError: string | null;
  /** Nested dialect only: the coarse class (`validationError`, `internalError`), "none" dropped. */
  codeErrorClass: string | null;
  message: string | null;
  traceID: string | null;
  totalNumberRecords: number | null;
  dialect: Dialect;
}

function text(value: WireValue | undefined): string | null {
  return typeof value === "string" && value.trim() !== "" ? value : null;
}

function code(value: WireValue | undefined): string | null {
  const t = text(value);
  return t && t.trim().toLowerCase() !== "none" ? t.trim() : null;
}

/** Reads an envelope of either dialect, or returns null when the value is not an envelope. */
export function readEnvelope(value: WireValue): NormalisedEnvelope | null {
  if (!isWireObject(value)) return null;
  const result = value.result;
  if (isWireObject(result) && typeof result.status === "string") {
    const status = result.status;
    return {
      ok: status.trim().toLowerCase() === "success",
      status,
      data: value.data ?? null,
      codeError: code(result.codeErrorExt) ?? code(result.codeError),
      codeErrorClass: code(result.codeError),
      message: text(result.message),
      traceID: text(result["x-request-id"]) ?? text(result.traceID) ?? text(value.traceID),
      totalNumberRecords: integerFromWire(value.totalNumberRecords),
      dialect: "nested",
    };
  }
  if (typeof value.status === "string" && ("data" in value || "traceID" in value || "codeError" in value)) {
    const status = value.status;
    return {
      ok: status.trim().toLowerCase() === "success",
      status,
      data: value.data ?? null,
      codeError: code(value.codeError),
      codeErrorClass: null,
      message: text(value.message),
      traceID: text(value.traceID) ?? text(value.traceId),
      totalNumberRecords: integerFromWire(value.totalNumberRecords),
      dialect: "spec",
    };
  }
  return null;
}

/** Envelope statuses that mean the token was refused. */
export function isAuthStatus(status: string): boolean {
  const s = status.trim().toLowerCase();
  return s === "autherror" || s === "accesserror";
}

export interface CallSite {
  method: string;
  path: string;
  httpStatus: number | null;
  attempts: number;
  redact: (text: string) => string;
}

/** The PlatformError for a non-success envelope (kind "business" or "auth"). */
export function envelopeError(env: NormalisedEnvelope, site: CallSite): PlatformError {
  const kind: PlatformErrorKind = isAuthStatus(env.status) ? "auth" : "business";
  const message = env.message === null ? null : site.redact(env.message);
  const what = env.codeError ?? env.codeErrorClass ?? env.status;
  return new PlatformError({
    kind,
    method: site.method,
    path: site.path,
    description: `Platform ${site.method} ${site.path} answered ${env.status}: ${what}${message ? ` - ${message}` : ""}${env.traceID ? ` (traceID ${env.traceID})` : ""}`,
    codeError: env.codeError,
    codeErrorClass: env.codeErrorClass,
    platformMessage: message,
    httpStatus: site.httpStatus,
    traceID: env.traceID,
    envelopeStatus: env.status,
    attempts: site.attempts,
  });
}

export const BODY_SNIPPET_LENGTH = 500;

export function snippet(body: string, redact: (text: string) => string): string {
  const clean = redact(body).replace(/\s+/g, " ").trim();
  return clean.length > BODY_SNIPPET_LENGTH ? `${clean.slice(0, BODY_SNIPPET_LENGTH)}…` : clean;
}

/** Short summary of a framework problem body: title plus the names and texts of invalid fields. */
function problemSummary(value: WireObject): { summary: string; traceID: string | null } | null {
  const title = text(value.title);
  if (!title) return null;
  const parts: string[] = [title];
  const errors = value.errors;
  if (isWireObject(errors)) {
    const fields = Object.entries(errors).map(([field, msgs]) => {
      const list = Array.isArray(msgs) ? msgs.filter((m): m is string => typeof m === "string") : [];
      return list.length ? `${field}: ${list.join(" ")}` : field;
    });
    if (fields.length) parts.push(`(${fields.join("; ")})`);
  }
  return { summary: parts.join(" "), traceID: text(value.traceId) ?? text(value.traceID) };
}

/**
 * The PlatformError for a body that is not an envelope. Kind: "auth" for HTTP 401/403, "transport"
 * for 5xx (a proxy or gateway answered), else "protocol". A problem body's `traceId` is kept as traceID
 * (it is the server's id of that request, searchable in its logs).
 */
export function nonEnvelopeError(
  body: string,
  site: CallSite & { headerTraceID: string | null; outcomeUnknown: boolean },
): PlatformError {
  const status = site.httpStatus;
  const kind: PlatformErrorKind =
    status === 401 || status === 403 ? "auth" : status !== null && status >= 500 ? "transport" : "protocol";
  let problem: { summary: string; traceID: string | null } | null = null;
  try {
    const parsed = parseWireJson(body);
    if (isWireObject(parsed)) problem = problemSummary(parsed);
  } catch {
    // not JSON (HTML, empty...): the snippet says what it was
  }
  const bodySnippet = snippet(body, site.redact);
  const detail = problem ? site.redact(problem.summary) : bodySnippet === "" ? "empty body" : bodySnippet;
  const traceID = problem?.traceID ?? site.headerTraceID;
  return new PlatformError({
    kind,
    method: site.method,
    path: site.path,
    description: `Platform ${site.method} ${site.path} returned HTTP ${status ?? "?"} without a response envelope: ${detail}`,
    httpStatus: status,
    traceID,
    bodySnippet,
    outcomeUnknown: site.outcomeUnknown,
    attempts: site.attempts,
  });
}
