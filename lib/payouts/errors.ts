/**
 * Platform refusals in words. Each result carries a typed code (the UI never matches message text) and
 * the traceID to give to the platform's support. Client-safe: pages and forms render the result.
 */
import { formatMoney } from "@/lib/money/format";
import { parseBalanceShortage } from "@/lib/platform/errors";

export type PayoutErrorCode =
  | "notEnoughMoneyOnBalance"
  | "fraud"
  | "noSuitableTariffForRequest"
  | "invalidRequestParameters"
  | "duplicateIdentifier"
  | "noPaymentDetailsAvailable"
  | "auth"
  | "unavailable"
  | "unknown";

export type ExplainedError = {
  code: PayoutErrorCode;
  /** The platform's codeError as received (null for transport failures). */
  codeError: string | null;
  /** What happened and what to do, in words. */
  message: string;
  traceID: string | null;
};

export type PlatformRefusal = {
  codeError: string | null;
  /** The platform's own message text (data from the platform, not a server exception). */
  message: string | null;
  traceID: string | null;
  /** PlatformError.kind when known: auth, transport, timeout, protocol, business. */
  kind?: string | null;
  paymentMethod?: string | null;
};

/** The field an invalidRequestParameters message names ("Field 'amount': ...", "field number is ..."). */
export function fieldFromMessage(message: string | null): string | null {
  if (!message) return null;
  const m =
    /field\s*['"`«]?([A-Za-z][\w.]*)['"`»]?/i.exec(message) ?? /['"`]([A-Za-z][\w.]*)['"`]/.exec(message);
  return m?.[1] ?? null;
}

function shortage(message: string | null): string {
  const s = parseBalanceShortage(message);
  if (!s) return "The balance is too low for this pay-out (amount plus commission).";
  const money = (v: { toFixed(): string } | null) =>
    v ? formatMoney(v.toFixed(), s.currency ?? "") : "unknown";
  return `The balance is too low for this pay-out: it needs ${money(s.required)}, the balance has ${money(s.available)}. Top up the balance or lower the amount.`;
}

export function explainPlatformRefusal(refusal: PlatformRefusal): ExplainedError {
  const { codeError, traceID } = refusal;
  const base = { codeError, traceID };
  switch (codeError) {
    case "notEnoughMoneyOnBalance":
      return { ...base, code: "notEnoughMoneyOnBalance", message: shortage(refusal.message) };
    case "fraud":
      return {
        ...base,
        code: "fraud",
        message:
          "The platform's anti-fraud check refused the pay-out: the end client's data (client id, IP address, registration date) looked like dummy values, or this client made too many requests in a short time. Use the end client's real data; do not retry at once.",
      };
    case "noSuitableTariffForRequest":
      return {
        ...base,
        code: "noSuitableTariffForRequest",
        message: `${refusal.paymentMethod ? `The payment method ${refusal.paymentMethod} is` : "This payment method is"} not in the merchant's tariff. Choose another method, or ask the account manager to add it.`,
      };
    case "invalidRequestParameters": {
      const field = fieldFromMessage(refusal.message);
      return {
        ...base,
        code: "invalidRequestParameters",
        message: `The platform refused the request as malformed${field ? `: field ${field}` : ""}.${refusal.message ? ` The platform said: “${refusal.message.slice(0, 300)}”.` : ""}`,
      };
    }
    case "duplicateIdentifier":
      return {
        ...base,
        code: "duplicateIdentifier",
        message:
          "The platform already has an operation with this idTransactionMerchant; no new operation was created.",
      };
    case "noPaymentDetailsAvailable":
      return {
        ...base,
        code: "noPaymentDetailsAvailable",
        message:
          "The platform has no free details for this method right now. Try again later or another method.",
      };
    case "internalError":
      return {
        ...base,
        code: "auth",
        message: "The platform refused Paydesk's credentials (token). Tell an admin; nothing was created.",
      };
  }
  if (refusal.kind === "auth")
    return {
      ...base,
      code: "auth",
      message: "The platform refused Paydesk's credentials (token). Tell an admin; nothing was created.",
    };
  if (refusal.kind === "transport" || refusal.kind === "timeout" || refusal.kind === "protocol")
    return {
      ...base,
      code: "unavailable",
      message: "The platform could not be reached or its answer could not be read. Try again in a moment.",
    };
  return {
    ...base,
    code: "unknown",
    message: `The platform refused the pay-out${codeError ? ` (code ${codeError})` : ""}.`,
  };
}
