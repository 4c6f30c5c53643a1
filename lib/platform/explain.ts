/**
 * The platform's refusals explained in the reader's language: every code of the spec's Errors table and
 * the wire notes' codeErrorExt values (and the nested dialect's coarse `validationError`), plus the
 * transport failures. Our explanation is written from `messages/<locale>/platformErrors.json`; the
 * platform's own message is kept as it came and shown beside it, never translated or rewritten.
 */
import "server-only";
import type { _Translator, Messages } from "next-intl";
import type { Locale } from "@/lib/i18n/locales";
import type { Decimal } from "@/lib/money/decimal";
import { formatMoney } from "@/lib/money/format";
import { parseBalanceShortage } from "./errors";

/** What the person was doing: the explanation names it ("refused the pay-out"). */
export type RefusalSubject = "payout" | "payin" | "paymentLink";

/** A typed reason for a refusal: the UI never matches message text. */
export type RefusalCode =
  | "notEnoughMoneyOnBalance"
  | "fraud"
  | "noSuitableTariffForRequest"
  | "invalidRequestParameters"
  | "duplicateIdentifier"
  | "noPaymentDetailsAvailable"
  | "auth"
  | "internalError"
  | "refusedWithoutEnvelope"
  | "unavailable"
  | "unknown";

export type PlatformRefusal = {
  codeError: string | null;
  /** The platform's own message text (data from the platform, not a server exception). */
  message: string | null;
  traceID: string | null;
  /** PlatformError.kind when known: auth, transport, timeout, protocol, business. Only `auth` is a refused
   * token; `internalError` is also the platform's generic failure, so without the kind (a refusal read
   * back from storage that did not keep it) the words claim neither. */
  kind?: string | null;
  /** The HTTP status of an answer without an envelope (a framework's problem body), when known. */
  httpStatus?: number | null;
  /** The nested dialect's coarse class (`validationError`...) when known. */
  codeErrorClass?: string | null;
  paymentMethod?: string | null;
};

export type ExplainedError = {
  code: RefusalCode;
  /** The platform's codeError as received (null for transport failures). */
  codeError: string | null;
  /** Our explanation: what happened and what to do, in the reader's language. */
  message: string;
  /** The platform's own message, unchanged (shown beside ours), or null when it sent none. */
  platformMessage: string | null;
  traceID: string | null;
};

/** The translator and language an explanation is written with (see platformErrorWords). */
export type PlatformErrorWords = { t: _Translator<Messages, "platformErrors">; locale: Locale };

/** Longest platform message shown; a longer one is cut (the whole text stays in the platform call log). */
const PLATFORM_MESSAGE_SHOWN = 1000;

/** The field an invalidRequestParameters message names ("Field 'amount': ...", "field number is ..."). */
export function fieldFromMessage(message: string | null): string | null {
  if (!message) return null;
  const m =
    /field\s*['"`«]?([A-Za-z][\w.]*)['"`»]?/i.exec(message) ?? /['"`]([A-Za-z][\w.]*)['"`]/.exec(message);
  return m?.[1] ?? null;
}

function shortage(message: string | null, { t, locale }: PlatformErrorWords): string {
  const s = parseBalanceShortage(message);
  if (!s) return t("explain.notEnoughMoneyOnBalance");
  const money = (v: Decimal | null) =>
    v ? formatMoney(v.toFixed(), s.currency ?? "", { locale }) : t("explain.amountUnknown");
  return t("explain.notEnoughMoneyOnBalanceAmounts", {
    required: money(s.required),
    available: money(s.available),
  });
}

/** HTTP statuses without an envelope that ask to try again later rather than refuse the request. */
export const TRY_LATER_STATUSES: ReadonlySet<number> = new Set([408, 425, 429]);

function reasonOf(refusal: PlatformRefusal): RefusalCode {
  const status = refusal.httpStatus ?? 0;
  if (refusal.kind === "auth") return "auth";
  if (refusal.kind === "protocol" && status >= 400 && status < 500 && !TRY_LATER_STATUSES.has(status))
    return "refusedWithoutEnvelope";
  switch (refusal.codeError) {
    case "notEnoughMoneyOnBalance":
    case "fraud":
    case "noSuitableTariffForRequest":
    case "invalidRequestParameters":
    case "duplicateIdentifier":
    case "noPaymentDetailsAvailable":
      return refusal.codeError;
    case "validationError":
      return "invalidRequestParameters";
    case "internalError":
      return "internalError";
  }
  if (refusal.codeErrorClass === "validationError") return "invalidRequestParameters";
  if (refusal.codeErrorClass === "internalError") return "internalError";
  if (refusal.kind === "transport" || refusal.kind === "timeout" || refusal.kind === "protocol")
    return "unavailable";
  return "unknown";
}

/** Our words for a refusal: the most specific the refusal allows. */
function explanation(
  code: RefusalCode,
  refusal: PlatformRefusal,
  words: PlatformErrorWords,
  subject: RefusalSubject,
): string {
  const { t } = words;
  if (code === "notEnoughMoneyOnBalance") return shortage(refusal.message, words);
  const method = refusal.paymentMethod;
  if (code === "noSuitableTariffForRequest" && method)
    return t("explain.noSuitableTariffForRequestMethod", { method });
  if (code === "internalError")
    return refusal.kind ? t("explain.internalError") : t("explain.internalErrorUnknownKind", { subject });
  if (code === "refusedWithoutEnvelope")
    return t("explain.refusedWithoutEnvelope", { subject, status: String(refusal.httpStatus) });
  const field = code === "invalidRequestParameters" ? fieldFromMessage(refusal.message) : null;
  if (field) return t("explain.invalidRequestParametersField", { field });
  if (code === "unknown" && refusal.codeError)
    return t("explain.unknownCode", { subject, code: refusal.codeError });
  return t(`explain.${code}`, { subject });
}

/**
 * A platform refusal explained in the reader's language (spec: Errors; wire notes: codeErrorExt), with
 * the platform's own message kept as it came and the traceID for the platform's support. The kind `auth`
 * (an AuthError status, HTTP 401/403) wins over the code: `internalError` is the spec's code for a refused
 * token and the platform's generic failure alike, and only the status tells them apart.
 */
export function explainPlatformRefusal(
  refusal: PlatformRefusal,
  words: PlatformErrorWords,
  subject: RefusalSubject = "payout",
): ExplainedError {
  const code = reasonOf(refusal);
  const platformMessage = refusal.message?.trim() ? refusal.message.slice(0, PLATFORM_MESSAGE_SHOWN) : null;
  const message = explanation(code, refusal, words, subject);
  return { code, codeError: refusal.codeError, message, platformMessage, traceID: refusal.traceID };
}
