// Recipient numbers (card, phone, account) are shown masked: only the last four characters stay.
// Every view of a platform body (operation page, trace lookup, support bundle, webhook delivery) masks
// with these rules; the full value is shown only through an audited reveal.
import { maskNumber } from "@/lib/platform/recorder";

export { maskNumber };

/**
 * JSON keys that hold recipient or payment-details numbers wherever they appear: the spec's
 * `number` and `numberAdditional` (pay-out request, paymentDetailsData, in both wire dialects) and
 * Paydesk's own names. Matched without regard to case: some clients write `Number`.
 */
const NUMBER_KEYS = new Set([
  "number",
  "numberadditional",
  "recipientnumber",
  "detailsnumber",
  "detailsnumberadditional",
]);

const isNumberKey = (key: string) => NUMBER_KEYS.has(key.toLowerCase());

/** Masks every string or number inside a value held under a number key (an object or list too). */
function maskAll(value: unknown): unknown {
  if (typeof value === "string") return maskNumber(value);
  if (typeof value === "number" || typeof value === "bigint") return maskNumber(String(value));
  if (Array.isArray(value)) return value.map(maskAll);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, maskAll(v)]),
  );
}

/** A deep copy of a JSON value with every recipient number masked. */
export function maskNumbersInJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(maskNumbersInJson);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).map(([key, v]) => [
      key,
      isNumberKey(key) ? maskAll(v) : maskNumbersInJson(v),
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

// Runs of ten or more digits (spaces or dashes between them allowed): card, phone and account numbers.
const DIGIT_RUN = /\d(?:[ -]?\d){9,}/g;

/**
 * A raw body as received, for display, with recipient numbers masked and everything else left as it
 * was (spacing, key order, exact amounts). JSON is read token by token, so a body cut short or broken
 * is masked as far as it goes; in text that is not valid JSON, long digit runs are masked as well.
 */
export function maskNumbersInText(text: string): string {
  const masked = maskJsonTokens(text);
  if (isJson(text)) return masked;
  return masked.replace(DIGIT_RUN, (run) => {
    let keep = 4;
    return [...run]
      .reverse()
      .map((c) => (/\d/.test(c) && keep-- <= 0 ? "*" : c))
      .reverse()
      .join("");
  });
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** The string token starting at `start` (a quote): the index just past it; unterminated, the text's end. */
function stringEnd(text: string, start: number): { end: number; closed: boolean } {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === '"') return { end: i + 1, closed: true };
  }
  return { end: text.length, closed: false };
}

function decodeString(token: string, closed: boolean): string {
  try {
    return JSON.parse(token) as string;
  } catch {
    return token.slice(1, closed ? -1 : undefined);
  }
}

/** A string token masked, still a JSON string (without its closing quote when the text was cut there). */
function maskStringToken(token: string, closed: boolean): string {
  const masked = JSON.stringify(maskNumber(decodeString(token, closed)));
  return closed ? masked : masked.slice(0, -1);
}

function maskJsonTokens(text: string): string {
  const parts: string[] = [];
  let copied = 0;
  const replace = (from: number, to: number, by: string) => {
    parts.push(text.slice(copied, from), by);
    copied = to;
  };
  // Open containers; for an object, whether the next string is a key.
  const stack: { object: boolean; expectKey: boolean }[] = [];
  let key: string | null = null;
  let maskValue = false; // the value about to start belongs to a number key
  let maskedDepth = -1; // depth of the container being masked whole, or -1
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    const top = stack.at(-1);
    if (c === '"') {
      const { end, closed } = stringEnd(text, i);
      if (top?.object && top.expectKey) {
        key = decodeString(text.slice(i, end), closed);
        top.expectKey = false;
      } else {
        if (maskValue || maskedDepth >= 0) replace(i, end, maskStringToken(text.slice(i, end), closed));
        maskValue = false;
      }
      i = end;
    } else if (c === "-" || (c >= "0" && c <= "9")) {
      let end = i + 1;
      while (end < text.length && /[-+.eE0-9]/.test(text[end]!)) end++;
      if (maskValue || maskedDepth >= 0) replace(i, end, maskNumber(text.slice(i, end)));
      maskValue = false;
      i = end;
    } else {
      if (c === ":") maskValue = key !== null && isNumberKey(key);
      else if (c === ",") {
        if (top?.object) top.expectKey = true;
        maskValue = false;
      } else if (c === "{" || c === "[") {
        stack.push({ object: c === "{", expectKey: c === "{" });
        if (maskValue && maskedDepth < 0) maskedDepth = stack.length;
        maskValue = false;
      } else if (c === "}" || c === "]") {
        if (maskedDepth === stack.length) maskedDepth = -1;
        stack.pop();
      } else if (!/\s/.test(c)) maskValue = false;
      i++;
    }
  }
  parts.push(text.slice(copied));
  return parts.join("");
}
