/**
 * Typed errors of the Merchant API client.
 *
 * - PlatformRequestError: the request was refused locally, before anything was sent (bad amount,
 *   missing field...). Nothing reached the platform and nothing was recorded.
 * - PlatformError: a call was made and failed. `kind` says how:
 *     business  - an envelope with a non-success status and a code (duplicateIdentifier, fraud...)
 *     auth      - envelope status AuthError, or HTTP 401/403 without an envelope
 *     transport - network error, dropped connection, HTTP 5xx without an envelope
 *     protocol  - a body that is not an envelope, or data that does not match the schema
 *     timeout   - no complete answer within the configured time
 *
 * No error ever carries the token: every text that could come from outside is passed through the
 * transport's redaction before it is put into an error, and errors hold no reference to options.
 */
import "server-only";
import { Decimal, isDecimalString } from "@/lib/money/decimal";

/** Codes named by the spec; unknown codes are kept as plain strings. */
export const KNOWN_ERROR_CODES = [
  "duplicateIdentifier",
  "noSuitableTariffForRequest",
  "noPaymentDetailsAvailable",
  "fraud",
  "notEnoughMoneyOnBalance",
  "invalidRequestParameters",
  "internalError",
] as const;
export type KnownErrorCode = (typeof KNOWN_ERROR_CODES)[number];
// `string & {}` keeps autocompletion of the known codes while accepting any other.
export type PlatformErrorCode = KnownErrorCode | (string & {});

export type PlatformErrorKind = "business" | "auth" | "transport" | "protocol" | "timeout";

export interface PlatformErrorInit {
  kind: PlatformErrorKind;
  method: string;
  path: string;
  /** Error.message: a complete, log-ready sentence. */
  description: string;
  codeError?: PlatformErrorCode | null;
  /** Coarse class of the nested dialect (`validationError`...), when present. */
  codeErrorClass?: string | null;
  platformMessage?: string | null;
  httpStatus?: number | null;
  traceID?: string | null;
  envelopeStatus?: string | null;
  bodySnippet?: string | null;
  outcomeUnknown?: boolean;
  attempts?: number;
}

export class PlatformError extends Error {
  override readonly name = "PlatformError";
  readonly kind: PlatformErrorKind;
  readonly method: string;
  readonly path: string;
  readonly codeError: PlatformErrorCode | null;
  readonly codeErrorClass: string | null;
  /** The platform's own `message` text, verbatim (redacted), when there was one. */
  readonly platformMessage: string | null;
  readonly httpStatus: number | null;
  readonly traceID: string | null;
  /** Envelope status text as received (`Warning`, `AuthError`, `accessError`...). */
  readonly envelopeStatus: string | null;
  /** Start of a non-envelope body (truncated, redacted) for protocol/transport errors. */
  readonly bodySnippet: string | null;
  /**
   * True when the request may have reached the platform but no usable answer came back
   * (timeout or dropped connection on a creation call): the caller must look the operation up
   * instead of assuming it failed.
   */
  readonly outcomeUnknown: boolean;
  /** Number of attempts made (reads may retry). */
  readonly attempts: number;

  constructor(init: PlatformErrorInit) {
    super(init.description);
    this.kind = init.kind;
    this.method = init.method;
    this.path = init.path;
    this.codeError = init.codeError ?? null;
    this.codeErrorClass = init.codeErrorClass ?? null;
    this.platformMessage = init.platformMessage ?? null;
    this.httpStatus = init.httpStatus ?? null;
    this.traceID = init.traceID ?? null;
    this.envelopeStatus = init.envelopeStatus ?? null;
    this.bodySnippet = init.bodySnippet ?? null;
    this.outcomeUnknown = init.outcomeUnknown ?? false;
    this.attempts = init.attempts ?? 1;
  }

  /** Plain object for structured logs (no token is ever in any field). */
  toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      kind: this.kind,
      message: this.message,
      method: this.method,
      path: this.path,
      codeError: this.codeError,
      codeErrorClass: this.codeErrorClass,
      platformMessage: this.platformMessage,
      httpStatus: this.httpStatus,
      traceID: this.traceID,
      envelopeStatus: this.envelopeStatus,
      outcomeUnknown: this.outcomeUnknown,
      attempts: this.attempts,
    };
  }
}

export interface RequestIssue {
  /** Dotted path of the field, e.g. "amount" or "integrationMerhcnatData.webHook". */
  field: string;
  message: string;
}

/** The request was refused before sending. `field` names the first offending field. */
export class PlatformRequestError extends Error {
  override readonly name = "PlatformRequestError";
  readonly field: string | null;
  constructor(
    readonly issues: RequestIssue[],
    options?: { cause?: unknown },
  ) {
    const first = issues[0];
    super(
      first
        ? `Request refused before sending: ${issues.map((i) => `${i.field || "(body)"}: ${i.message}`).join("; ")}`
        : "Request refused before sending",
      options,
    );
    this.field = first?.field ?? null;
  }
}

export function isPlatformError(error: unknown): error is PlatformError {
  return error instanceof PlatformError;
}

/** `true` when `error` is a PlatformError with that codeError. */
export function hasErrorCode(error: unknown, code: PlatformErrorCode): error is PlatformError {
  return error instanceof PlatformError && error.codeError === code;
}

export interface BalanceShortage {
  required: Decimal | null;
  available: Decimal | null;
  currency: string | null;
}

// Keywords are matched case-insensitively, most specific first; the number must follow closely
// ("required: 150.5 USDT", "available USDT 20", "доступно 20 USDT").
const REQUIRED_WORDS = [
  "required",
  "requested",
  "needed",
  "need",
  "amount",
  "требуется",
  "необходимо",
  "нужно",
  "сумма",
];
const AVAILABLE_WORDS = ["available", "on balance", "balance", "доступно", "на балансе", "остаток", "баланс"];
const AFTER_WORD =
  /^\s*(?:amount|is|of|сумма)?\s*[:=\-\u2014]?\s*(?:([A-Z]{3,5})\s+)?(\d+(?:[.,]\d+)?)(?:\s*([A-Z]{3,5})\b)?/;

function findAmount(
  message: string,
  words: readonly string[],
): { amount: Decimal | null; currency: string | null } {
  const lower = message.toLowerCase();
  for (const word of words) {
    for (let at = lower.indexOf(word); at >= 0; at = lower.indexOf(word, at + 1)) {
      const m = AFTER_WORD.exec(message.slice(at + word.length));
      const digits = m?.[2]?.replace(",", ".");
      if (!m || !digits || !isDecimalString(digits)) continue;
      return { amount: new Decimal(digits), currency: m[3] ?? m[1] ?? null };
    }
  }
  return { amount: null, currency: null };
}

/**
 * Best-effort reading of a notEnoughMoneyOnBalance message ("... required 150.5 USDT, available
 * 20 USDT"). The spec says the message states both amounts and the balance currency but not the
 * format, so anything not found is null; returns null when nothing at all was found.
 */
export function parseBalanceShortage(message: string | null | undefined): BalanceShortage | null {
  if (!message) return null;
  const required = findAmount(message, REQUIRED_WORDS);
  const available = findAmount(message, AVAILABLE_WORDS);
  const shortage: BalanceShortage = {
    required: required.amount,
    available: available.amount,
    currency: required.currency ?? available.currency,
  };
  return shortage.required || shortage.available ? shortage : null;
}
