/**
 * Exact JSON for the platform wire.
 *
 * Reading: `parseWireJson` keeps every JSON number as a LosslessNumber (its exact text), so no amount
 * ever passes through a double. Schemas turn those into Decimal where a decimal is expected.
 * Writing: request bodies are built with LosslessNumber for amounts (plain notation, at most four
 * decimals, checked before) and serialised by `stringifyWire`, so `62.5` goes out as the JSON number
 * 62.5, never as "62.5", 6.25e1 or 62.499999.
 */
import "server-only";
import { LosslessNumber, isLosslessNumber, parse, stringify } from "lossless-json";
import { setOwnProperty } from "@/lib/own-property";
import { Decimal, assertPositive, toDecimal, toWireString } from "@/lib/money/decimal";
import { wireSyntaxError } from "./wire-syntax";

export { LosslessNumber, isLosslessNumber };
export { WireSyntaxError } from "./wire-syntax";

/** A parsed wire value: JSON with numbers as LosslessNumber. */
export type WireValue = null | boolean | string | LosslessNumber | WireValue[] | { [key: string]: WireValue };
export type WireObject = { [key: string]: WireValue };

/** JSON for storage (raw payload): numbers are their exact decimal text, as strings. */
export type RawJson = null | boolean | string | RawJson[] | { [key: string]: RawJson };

/**
 * Parses JSON text keeping numbers exact. One leading byte order mark (U+FEFF) is ignored, as RFC 8259
 * allows a receiver to: some senders write one. Throws WireSyntaxError on invalid JSON: its kind and
 * position, never the text found there.
 */
export function parseWireJson(text: string): WireValue {
  const bom = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const json = bom ? text.slice(bom) : text;
  const marked = markNumbers(json);
  if (marked !== null) {
    try {
      return restoreNumbers(JSON.parse(marked) as unknown);
    } catch {
      // Invalid: V8's message quotes the marked copy, so lossless-json reads it again to say where.
    }
  }
  try {
    return parse(json) as WireValue;
  } catch (error) {
    throw error instanceof SyntaxError ? wireSyntaxError(error, bom) : error;
  }
}

// Fast path: the native JSON.parse (an order of magnitude faster than a parser written in JavaScript)
// on a copy of the text where every number literal is turned into a string starting with U+0001, then
// those strings back into LosslessNumber. Any text this cannot handle exactly (an invalid number, an
// unterminated string, or a text that contains the escape \u0001 anywhere) goes through lossless-json,
// and so does text the native parser refuses (for the error's position).
const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
const MARK = "\\u0001"; // the six characters \u0001: JSON.parse turns them into U+0001

function markNumbers(text: string): string | null {
  if (text.includes(MARK)) return null;
  let marked = "";
  let last = 0;
  for (let i = 0; i < text.length;) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      const end = closingQuote(text, i);
      if (end < 0) return null;
      i = end + 1;
    } else if (c === 45 || (c >= 48 && c <= 57)) {
      let j = i + 1;
      while (j < text.length) {
        const d = text.charCodeAt(j);
        if ((d >= 48 && d <= 57) || d === 46 || d === 101 || d === 69 || d === 43 || d === 45) j++;
        else break;
      }
      const literal = text.slice(i, j);
      if (!NUMBER.test(literal)) return null;
      marked += `${text.slice(last, i)}"${MARK}${literal}"`;
      last = i = j;
    } else i++;
  }
  return marked + text.slice(last);
}

/** The index of the quote that ends the string opening at `open`, or -1. */
function closingQuote(text: string, open: number): number {
  for (let end = text.indexOf('"', open + 1); end >= 0; end = text.indexOf('"', end + 1)) {
    let backslashes = 0;
    while (text.charCodeAt(end - 1 - backslashes) === 92) backslashes++;
    if (backslashes % 2 === 0) return end;
  }
  return -1;
}

/** Turns the marked strings of JSON.parse's fresh result back into numbers, in place. */
function restoreNumbers(value: unknown): WireValue {
  if (typeof value === "string")
    return value.charCodeAt(0) === 1 ? new LosslessNumber(value.slice(1)) : value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = restoreNumbers(value[i]);
  } else if (value !== null && typeof value === "object") {
    const object = value as Record<string, unknown>;
    for (const key of Object.keys(object)) object[key] = restoreNumbers(object[key]);
  }
  return value as WireValue;
}

/** Serialises a wire value; LosslessNumber values are written verbatim as JSON numbers. */
export function stringifyWire(value: WireValue): string {
  return stringify(value) ?? "null";
}

export function isWireObject(value: unknown): value is WireObject {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !isLosslessNumber(value);
}

/** Raw-payload form: every number becomes its exact text ("922337203685477.5807"). */
export function wireToRaw(value: WireValue): RawJson {
  if (isLosslessNumber(value)) return value.value;
  if (Array.isArray(value)) return value.map(wireToRaw);
  if (isWireObject(value)) {
    const out: { [key: string]: RawJson } = {};
    for (const key of Object.keys(value)) setOwnProperty(out, key, wireToRaw(value[key]!));
    return out;
  }
  return value;
}

/**
 * How many digits a decimal from the wire may have. Before the separator, one fewer than its column
 * holds (amounts NUMERIC(24,4): 20, rates NUMERIC(24,8): 16), so that a value read is a value the
 * mirror can store even once rounded to the column's scale, and a pay-out's amount plus its commission
 * (the ledger's hold, NUMERIC(24,4)) fits too. After it, 28 (what a 128-bit decimal type prints at
 * most): the columns keep 4 (8) and round the rest, as before.
 */
export type DecimalDigits = { readonly integer: number; readonly fraction: number };
export const AMOUNT_DIGITS: DecimalDigits = { integer: 19, fraction: 28 };
export const RATE_DIGITS: DecimalDigits = { integer: 15, fraction: 28 };

/**
 * A decimal from the wire: a JSON number (LosslessNumber) or, leniently, a decimal string, in plain
 * notation within `digits`. Returns null for anything else: exponent notation (the spec never uses it,
 * and `1e300000000`, a few bytes here, is 300 million digits written out), JS numbers (they may
 * already have lost digits), junk.
 */
export function decimalFromWire(value: unknown, digits: DecimalDigits = AMOUNT_DIGITS): Decimal | null {
  const text = isLosslessNumber(value) ? value.value : typeof value === "string" ? value : null;
  return text !== null && plainWithin(digits).test(text) ? new Decimal(text) : null;
}

// Plain notation (isDecimalString) with at most so many digits on each side: one pattern per DecimalDigits.
const PLAIN_WITHIN = new WeakMap<DecimalDigits, RegExp>();
function plainWithin(digits: DecimalDigits): RegExp {
  let pattern = PLAIN_WITHIN.get(digits);
  if (!pattern) {
    const whole = digits.integer > 0 ? `\\d{1,${digits.integer}}` : "(?!)"; // no digit allowed: nothing matches
    const fraction = digits.fraction > 0 ? `(?:\\.\\d{1,${digits.fraction}})?` : "";
    pattern = new RegExp(`^-?${whole}${fraction}$`);
    PLAIN_WITHIN.set(digits, pattern);
  }
  return pattern;
}

/** A safe integer from the wire (totalNumberRecords...), or null. */
export function integerFromWire(value: unknown): number | null {
  const text = isLosslessNumber(value) ? value.value : typeof value === "string" ? value : null;
  if (text === null || !/^-?\d+$/.test(text)) return null;
  const n = Number(text); // integer text only: exact while it is a safe integer, checked below
  return Number.isSafeInteger(n) ? n : null;
}

/**
 * An amount for a request body: a Decimal or plain decimal string, finite, greater than zero, at most
 * four decimals. Throws InvalidAmountError (naming `field`) otherwise.
 */
export function amountToWire(value: unknown, field: string): LosslessNumber {
  const d = toDecimal(value as string | Decimal, field);
  assertPositive(d, field);
  return new LosslessNumber(toWireString(d, field));
}
