import "server-only";

/**
 * The transport: one HTTP exchange per attempt with a timeout, a record for every attempt, retries for
 * idempotent reads only.
 *
 * - Every attempt has `AbortSignal.timeout(timeoutMs)` (covering headers and body).
 * - Reads (GETs and the list POST) retry on network errors, timeouts, HTTP 5xx and 429 with exponential
 *   backoff and full jitter: delay = random() * min(maxDelayMs, baseDelayMs * 2^(attempt-1)).
 *   Creations are never retried here: after a timeout their outcome is unknown (error.outcomeUnknown)
 *   and the exactly-once layer above looks the operation up.
 * - The body is read as text and parsed losslessly; the envelope is read whatever the HTTP status.
 * - Redirects are not followed (the Authorization header must not travel elsewhere).
 * - The token exists only in the Authorization header; all outside text placed in errors and records
 *   is redacted of it.
 */
import { PlatformError } from "./errors";
import {
  envelopeError,
  nonEnvelopeError,
  readEnvelope,
  snippet,
  type CallSite,
  type NormalisedEnvelope,
} from "./envelope";
import {
  maskRequestBody,
  maskResponseBody,
  noopRecorder,
  type ApiCallRecord,
  type ApiCallRecorder,
} from "./recorder";
import { SchemaMismatchError } from "./schemas";
import { isWireObject, parseWireJson, stringifyWire, type WireObject, type WireValue } from "./wire";

export interface RetryOptions {
  /** Total attempts for idempotent reads (1 = no retry). Default 3. */
  attempts: number;
  /** Default 250 ms. */
  baseDelayMs: number;
  /** Cap of one backoff step. Default 4000 ms. */
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryOptions = { attempts: 3, baseDelayMs: 250, maxDelayMs: 4000 };
export const DEFAULT_TIMEOUT_MS = 15_000;

export interface TransportOptions {
  /** e.g. "https://platform.example/api"; paths are appended to it. */
  baseUrl: string;
  /** The merchant JWT. Never logged, never in an error or record. */
  token: string;
  /** Per attempt. Default 15 s. */
  timeoutMs?: number;
  retry?: Partial<RetryOptions>;
  recorder?: ApiCallRecorder;
  /** Injectable for tests; defaults to the global fetch. */
  fetch?: typeof fetch;
  /** Injectable for tests. */
  sleep?: (ms: number) => Promise<void>;
  /** Injectable for tests; must return [0, 1). */
  random?: () => number;
  /** Called when the recorder throws; the call itself is not failed by a recorder problem. */
  onRecorderError?: (error: unknown, record: ApiCallRecord) => void;
}

/** Who and what a call is about; passed through to the record. */
export interface CallContext {
  actorUserId?: string;
  /** Platform operation id the call concerns, when known before the call. */
  operationId?: string;
  /** Cancels the call (in addition to the timeout); a cancelled call is not retried. */
  signal?: AbortSignal;
}

export interface TransportRequest<T> {
  method: "GET" | "POST";
  path: string;
  body?: WireObject;
  /** Reads: may be retried. Creations: never. */
  idempotent: boolean;
  context?: CallContext;
  idTransactionMerchant?: string | null;
  /** Turns the envelope into the result; throws PlatformError or SchemaMismatchError. */
  decode: (envelope: NormalisedEnvelope, site: CallSite) => T;
}

export interface TransportResult<T> {
  value: T;
  envelope: NormalisedEnvelope;
  httpStatus: number;
  attempts: number;
}

export interface Transport {
  call<T>(request: TransportRequest<T>): Promise<TransportResult<T>>;
}

/** Throws the envelope's PlatformError unless it is a success. */
export function expectOk(envelope: NormalisedEnvelope, site: CallSite): void {
  if (!envelope.ok) throw envelopeError(envelope, site);
}

// Network failures where the request certainly never reached the server.
const NOT_SENT_CODES = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ENETUNREACH",
  "EHOSTUNREACH",
  "ERR_INVALID_URL",
]);

function errorCode(error: unknown): string | null {
  const cause = (error as { cause?: { code?: unknown } } | null)?.cause;
  return typeof cause?.code === "string" ? cause.code : null;
}

function describeNetworkError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? error.cause : null;
  const code = errorCode(error);
  return `${error.name}: ${error.message}${cause ? ` (${code ? `${code}: ` : ""}${cause.message})` : ""}`;
}

function makeRedactor(token: string): (text: string) => string {
  return (text) => {
    let out = token ? text.split(token).join("[REDACTED]") : text;
    out = out.replace(/(Bearer\s+)[A-Za-z0-9._~+/=-]{8,}/gi, "$1[REDACTED]");
    return out;
  };
}

function joinUrl(base: URL, path: string): string {
  return new URL(path.replace(/^\/+/, ""), base).toString();
}

type Attempt =
  | { type: "response"; status: number; text: string; headerTraceID: string | null }
  | { type: "failure"; error: unknown; timedOut: boolean; cancelled: boolean };

export function createTransport(options: TransportOptions): Transport {
  if (typeof options.token !== "string" || options.token.trim() === "") {
    throw new Error("Platform client: token is required");
  }
  let base: URL;
  try {
    base = new URL(options.baseUrl.endsWith("/") ? options.baseUrl : `${options.baseUrl}/`);
  } catch {
    throw new Error("Platform client: baseUrl is not a valid URL");
  }
  if (base.protocol !== "https:" && base.protocol !== "http:")
    throw new Error("Platform client: baseUrl must be http(s)");

  const authorization = `Bearer ${options.token}`;
  const redact = makeRedactor(options.token);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const retry: RetryOptions = { ...DEFAULT_RETRY, ...options.retry };
  const recorder = options.recorder ?? noopRecorder;
  const doFetch = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const random = options.random ?? Math.random;
  const onRecorderError =
    options.onRecorderError ??
    ((error: unknown, record: ApiCallRecord) => {
      console.error(
        `[platform] could not record ${record.method} ${record.path} (traceID ${record.traceID ?? "-"})`,
        error,
      );
    });

  async function record(rec: ApiCallRecord): Promise<void> {
    try {
      await recorder.record(rec);
    } catch (error) {
      onRecorderError(error, rec);
    }
  }

  async function attemptOnce(
    url: string,
    init: RequestInit,
    signal: AbortSignal,
    external: AbortSignal | undefined,
  ): Promise<Attempt> {
    try {
      const res = await doFetch(url, { ...init, signal });
      const text = await res.text();
      const headerTraceID =
        res.headers.get("x-request-id") ?? res.headers.get("traceid") ?? res.headers.get("x-trace-id");
      return { type: "response", status: res.status, text, headerTraceID };
    } catch (error) {
      const cancelled = external?.aborted === true;
      const timedOut =
        !cancelled && (signal.aborted || (error instanceof Error && error.name === "TimeoutError"));
      return { type: "failure", error, timedOut, cancelled };
    }
  }

  async function call<T>(req: TransportRequest<T>): Promise<TransportResult<T>> {
    const url = joinUrl(base, req.path);
    const bodyText = req.body === undefined ? undefined : stringifyWire(req.body);
    const maskedBody = req.body === undefined ? null : redact(maskRequestBody(req.body) ?? "");
    const headers: Record<string, string> = { Accept: "application/json", Authorization: authorization };
    if (bodyText !== undefined) headers["Content-Type"] = "application/json";
    const init: RequestInit = {
      method: req.method,
      headers,
      body: bodyText,
      redirect: "manual",
      cache: "no-store",
    };
    const maxAttempts = req.idempotent ? Math.max(1, Math.floor(retry.attempts)) : 1;
    const ctx = req.context ?? {};

    for (let attempt = 1; ; attempt++) {
      const startedAt = new Date();
      const t0 = performance.now();
      const timeout = AbortSignal.timeout(timeoutMs);
      const signal = ctx.signal ? AbortSignal.any([timeout, ctx.signal]) : timeout;
      const outcome = await attemptOnce(url, init, signal, ctx.signal);
      const latencyMs = Math.round(performance.now() - t0);
      const canRetry = req.idempotent && attempt < maxAttempts;

      const rec: ApiCallRecord = {
        method: req.method,
        path: req.path,
        requestBody: maskedBody,
        responseBody: null,
        httpStatus: null,
        envelopeStatus: null,
        codeError: null,
        message: null,
        traceID: null,
        latencyMs,
        actorUserId: ctx.actorUserId ?? null,
        operationId: ctx.operationId ?? null,
        idTransactionMerchant: req.idTransactionMerchant ?? null,
        error: null,
        startedAt,
        dialect: null,
        attempt,
      };

      if (outcome.type === "failure") {
        const code = errorCode(outcome.error);
        const detail = outcome.cancelled
          ? "cancelled by the caller"
          : outcome.timedOut
            ? `no answer within ${timeoutMs} ms`
            : redact(describeNetworkError(outcome.error));
        const err = new PlatformError({
          kind: outcome.timedOut ? "timeout" : "transport",
          method: req.method,
          path: req.path,
          description: `Platform ${req.method} ${req.path} failed: ${detail}`,
          outcomeUnknown: !req.idempotent && !(code !== null && NOT_SENT_CODES.has(code)),
          attempts: attempt,
        });
        rec.error = err.message;
        await record(rec);
        if (canRetry && !outcome.cancelled) {
          await sleep(backoff(attempt));
          continue;
        }
        throw err;
      }

      rec.httpStatus = outcome.status;
      rec.responseBody = maskResponseBody(outcome.text, redact);
      const site: CallSite = {
        method: req.method,
        path: req.path,
        httpStatus: outcome.status,
        attempts: attempt,
        redact,
      };
      let envelope: NormalisedEnvelope | null = null;
      try {
        envelope = readEnvelope(outcome.text.trim() === "" ? null : parseWireJson(outcome.text));
      } catch {
        envelope = null; // not JSON
      }
      const retryableStatus = outcome.status >= 500 || outcome.status === 429;

      if (envelope) {
        rec.envelopeStatus = envelope.status;
        rec.codeError = envelope.codeError ?? envelope.codeErrorClass;
        rec.message = envelope.message === null ? null : redact(envelope.message);
        rec.traceID = envelope.traceID ?? outcome.headerTraceID;
        rec.dialect = envelope.dialect;
        envelope = { ...envelope, traceID: rec.traceID };
        fillFromData(rec, envelope.data);
      } else {
        rec.traceID = outcome.headerTraceID;
      }

      if (retryableStatus && canRetry) {
        rec.error = envelope
          ? `HTTP ${outcome.status}`
          : `HTTP ${outcome.status}: ${snippet(outcome.text, redact) || "empty body"}`;
        await record(rec);
        await sleep(backoff(attempt));
        continue;
      }

      if (!envelope) {
        const err = nonEnvelopeError(outcome.text, {
          ...site,
          headerTraceID: outcome.headerTraceID,
          outcomeUnknown: !req.idempotent && (outcome.status < 400 || outcome.status >= 500),
        });
        rec.error = err.message;
        await record(rec);
        throw err;
      }

      try {
        const value = req.decode(envelope, site);
        await record(rec);
        return { value, envelope, httpStatus: outcome.status, attempts: attempt };
      } catch (error) {
        if (error instanceof SchemaMismatchError) {
          const err = new PlatformError({
            kind: "protocol",
            method: req.method,
            path: req.path,
            description: `Platform ${req.method} ${req.path}: ${redact(error.message)}${envelope.traceID ? ` (traceID ${envelope.traceID})` : ""}`,
            httpStatus: outcome.status,
            traceID: envelope.traceID,
            envelopeStatus: envelope.status,
            outcomeUnknown: !req.idempotent,
            attempts: attempt,
          });
          rec.error = err.message;
          await record(rec);
          throw err;
        }
        if (!(error instanceof PlatformError) || (error.kind !== "business" && error.kind !== "auth")) {
          rec.error = error instanceof Error ? redact(error.message) : redact(String(error));
        }
        await record(rec);
        throw error;
      }
    }
  }

  function backoff(attempt: number): number {
    const cap = Math.min(retry.maxDelayMs, retry.baseDelayMs * 2 ** (attempt - 1));
    return Math.floor(random() * cap);
  }

  return { call };
}

/** operationId / idTransactionMerchant from a single-operation response, when the record lacks them. */
function fillFromData(rec: ApiCallRecord, data: WireValue): void {
  if (!isWireObject(data)) return;
  if (rec.operationId === null && typeof data.id === "string") rec.operationId = data.id.toLowerCase();
  if (rec.idTransactionMerchant === null && typeof data.idTransactionMerchant === "string") {
    rec.idTransactionMerchant = data.idTransactionMerchant;
  }
}
