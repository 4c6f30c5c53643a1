/**
 * Decimal amounts as text, without decimal.js: what browser code needs (the formatter, the error type)
 * so that the arithmetic library stays out of the pages' JavaScript. lib/money/decimal.ts re-exports
 * all of it next to the Decimal type.
 */

/** Digits after the separator the platform accepts for amounts. */
export const WIRE_MAX_DECIMALS = 4;

/** Plain decimal notation: optional minus, digits, optional fraction. No exponent, no spaces, no "+". */
const DECIMAL_STRING = /^-?\d+(?:\.\d+)?$/;

export type InvalidAmountReason = "not-a-decimal" | "not-finite" | "too-many-decimals" | "not-positive";

/** An amount that is not an exact decimal or cannot be sent to the platform. Client-safe. */
export class InvalidAmountError extends Error {
  override readonly name = "InvalidAmountError";
  constructor(
    readonly reason: InvalidAmountReason,
    /** The offending value as text (truncated); never a secret. */
    readonly value: string,
    /** The field the value belongs to, when known (e.g. "amount"). */
    readonly field: string | null = null,
  ) {
    super(`${field ? `${field}: ` : ""}${describeReason(reason)} (got ${JSON.stringify(value)})`);
  }
}

function describeReason(reason: InvalidAmountReason): string {
  switch (reason) {
    case "not-a-decimal":
      return "not a plain decimal number";
    case "not-finite":
      return "not a finite number";
    case "too-many-decimals":
      return `more than ${WIRE_MAX_DECIMALS} digits after the separator`;
    case "not-positive":
      return "must be greater than zero";
  }
}

/** The value as text for an error message, cut at 64 characters (a Decimal prints its digits). */
export function preview(value: unknown): string {
  const text = typeof value === "string" ? value : String(value);
  return text.length > 64 ? `${text.slice(0, 64)}…` : text;
}

/**
 * The plain decimal text of an amount: a decimal string as given, a Decimal (also one from another
 * decimal.js copy, e.g. Prisma.Decimal) by `toFixed()`, which never uses an exponent. Throws
 * InvalidAmountError for anything else: exponent notation, NaN, Infinity, a JS number.
 */
export function plainDecimalText(
  value: string | { toFixed(): string; isFinite(): boolean },
  field: string | null = null,
): string {
  if (typeof value === "string") {
    if (!isDecimalString(value)) throw new InvalidAmountError("not-a-decimal", preview(value), field);
    return value;
  }
  const decimal = value as Partial<typeof value> | null;
  if (typeof decimal?.toFixed === "function" && typeof decimal.isFinite === "function") {
    if (!decimal.isFinite()) throw new InvalidAmountError("not-finite", preview(value), field);
    return decimal.toFixed();
  }
  throw new InvalidAmountError("not-a-decimal", preview(value), field);
}

/** True for strings like "0", "-1", "62.50", "922337203685477.5807"; false for "1e3", " 1", ".5", "NaN". */
export function isDecimalString(value: string): boolean {
  return DECIMAL_STRING.test(value);
}
