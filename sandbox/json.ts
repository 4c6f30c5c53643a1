import { isLosslessNumber, parse } from "lossless-json";

/** A JSON number whose exact text is already known (a canonical decimal string). */
export class WireNumber {
  constructor(readonly text: string) {}
}

export function num(text: string): WireNumber {
  return new WireNumber(text);
}

/**
 * Parses a request body keeping every number as a LosslessNumber, so the literal text
 * ("1e3", "62.50", "0.00001") can be validated. Throws SyntaxError on malformed JSON.
 */
export function parseLossless(text: string): unknown {
  return parse(text);
}

/** The literal text of a parsed JSON number, or undefined when the value is not a JSON number. */
export function numberText(value: unknown): string | undefined {
  return isLosslessNumber(value) ? value.value : undefined;
}

/**
 * Serializes plain data to JSON. WireNumber values are written verbatim, so amounts never pass
 * through a JS float; JS numbers are only used for integers (counts, HTTP codes).
 */
export function writeJson(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (value instanceof WireNumber) return value.text;
  switch (typeof value) {
    case "string":
      return JSON.stringify(value);
    case "number":
      return Number.isFinite(value) ? String(value) : "null";
    case "boolean":
      return value ? "true" : "false";
    case "object":
      return Array.isArray(value) ? writeArray(value) : writeObject(value as Record<string, unknown>);
    default:
      return "null";
  }
}

function writeArray(items: unknown[]): string {
  let out = "[";
  for (let index = 0; index < items.length; index++) {
    if (index > 0) out += ",";
    out += writeJson(items[index]);
  }
  return out + "]";
}

function writeObject(record: Record<string, unknown>): string {
  let out = "{";
  let first = true;
  for (const key in record) {
    const item = record[key];
    if (item === undefined) continue;
    if (!first) out += ",";
    first = false;
    out += quotedKey(key) + writeJson(item);
  }
  return out + "}";
}

/**
 * `"key":` for the keys already written. Quoting every key anew took half the time of a list page
 * (1,000 operations of 15 keys). The keys are a small vocabulary; the cache is emptied past 1,000
 * keys, and keeps none longer than 64 characters, so that keys which are data (a record by currency,
 * say) cannot grow it without bound.
 */
const quotedKeys = new Map<string, string>();

function quotedKey(key: string): string {
  let quoted = quotedKeys.get(key);
  if (quoted === undefined) {
    quoted = JSON.stringify(key) + ":";
    if (key.length > 64) return quoted;
    if (quotedKeys.size >= 1000) quotedKeys.clear();
    quotedKeys.set(key, quoted);
  }
  return quoted;
}
