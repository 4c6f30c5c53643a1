/**
 * Exact JSON for the platform wire.
 *
 * Reading: `parseWireJson` keeps every JSON number as a LosslessNumber (its exact text), so no amount
 * ever passes through a double. Schemas turn those into Decimal where a decimal is expected.
 * Writing: request bodies are built with LosslessNumber for amounts (plain notation, at most four
 * decimals, checked before) and serialised by `stringifyWire`, so `62.5` goes out as the JSON number
 * 62.5, never as "62.5", 6.25e1 or 62.499999.
 */
import { LosslessNumber, isLosslessNumber, parse, stringify } from "lossless-json";
import { Decimal, assertPositive, isDecimalString, toDecimal, toWireString } from "@/lib/money/decimal";

export { LosslessNumber, isLosslessNumber };

/** A parsed wire value: JSON with numbers as LosslessNumber. */
export type WireValue = null | boolean | string | LosslessNumber | WireValue[] | { [key: string]: WireValue };
export type WireObject = { [key: string]: WireValue };

/** JSON for storage (raw payload): numbers are their exact decimal text, as strings. */
export type RawJson = null | boolean | string | RawJson[] | { [key: string]: RawJson };

/** Parses JSON text keeping numbers exact. Throws SyntaxError on invalid JSON. */
export function parseWireJson(text: string): WireValue {
  return parse(text) as WireValue;
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
    for (const [k, v] of Object.entries(value)) out[k] = wireToRaw(v);
    return out;
  }
  return value;
}

/**
 * A decimal from the wire: a JSON number (LosslessNumber) or, leniently, a plain decimal string.
 * Returns null for anything else (JS numbers included: they may already have lost digits).
 */
export function decimalFromWire(value: unknown): Decimal | null {
  if (isLosslessNumber(value)) {
    const d = new Decimal(value.value);
    return d.isFinite() ? d : null;
  }
  if (typeof value === "string" && isDecimalString(value)) return new Decimal(value);
  return null;
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
