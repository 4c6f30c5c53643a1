// Recipient numbers (card, phone, account) are shown masked: only the last four characters stay.
import { maskNumber } from "@/lib/platform/recorder";

export { maskNumber };

/** JSON keys that hold recipient or payment-details numbers wherever they appear. */
const NUMBER_KEYS = new Set(["number", "numberAdditional", "recipientNumber", "detailsNumber"]);

/** A deep copy of a JSON value with every recipient number masked. */
export function maskNumbersInJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(maskNumbersInJson);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).map(([key, v]) => [
      key,
      NUMBER_KEYS.has(key) && typeof v === "string" ? maskNumber(v) : maskNumbersInJson(v),
    ]),
  );
}

/** A JSON text with recipient numbers masked; text that is not JSON is dropped rather than leaked. */
export function maskNumbersInJsonText(text: string | null): unknown {
  if (text === null) return null;
  try {
    return maskNumbersInJson(JSON.parse(text));
  } catch {
    return "(not JSON; withheld)";
  }
}
