/**
 * Exact decimal money, shared by server and client code (no `server-only`, no env).
 *
 * - `Decimal` is a decimal.js clone with precision 40 significant digits and ROUND_HALF_UP
 *   ("commercial" rounding: 0.5 goes away from zero). Rounding only ever happens when code asks
 *   for it (`toDecimalPlaces`, `toFixed(n)`, division...); parsing never rounds.
 * - Amounts cross boundaries (JSON, server -> client, CSV) as plain decimal strings
 *   ("62.5", "922337203685477.5807"), never as JS numbers.
 * - The platform accepts at most four digits after the separator and no exponent:
 *   `isWireAmount` / `assertWireAmount` / `toWireString` enforce that.
 */
import { Decimal as DecimalJs } from "decimal.js";

export const Decimal = DecimalJs.clone({
  precision: 40,
  rounding: DecimalJs.ROUND_HALF_UP,
  // Keep toString() in plain notation for every realistic amount; toFixed() never uses exponents.
  toExpNeg: -40,
  toExpPos: 40,
});
export type Decimal = DecimalJs;

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

function preview(value: unknown): string {
  let text: string;
  if (typeof value === "string") text = value;
  else if (DecimalJs.isDecimal(value)) text = (value as DecimalJs).toString();
  else text = String(value);
  return text.length > 64 ? `${text.slice(0, 64)}…` : text;
}

/** True for strings like "0", "-1", "62.50", "922337203685477.5807"; false for "1e3", " 1", ".5", "NaN". */
export function isDecimalString(value: string): boolean {
  return DECIMAL_STRING.test(value);
}

/**
 * Converts a decimal string or a Decimal (also one from another decimal.js copy, e.g. Prisma.Decimal)
 * into this module's Decimal. Refuses exponent notation, NaN, Infinity and anything else that is not a
 * plain decimal string. Never goes through a JS float.
 */
export function toDecimal(value: string | Decimal, field: string | null = null): Decimal {
  if (typeof value === "string") {
    if (!DECIMAL_STRING.test(value)) throw new InvalidAmountError("not-a-decimal", preview(value), field);
    return new Decimal(value);
  }
  if (DecimalJs.isDecimal(value)) {
    if (!value.isFinite()) throw new InvalidAmountError("not-finite", preview(value), field);
    // Through the plain string so a Decimal from another decimal.js copy converts exactly.
    return new Decimal(value.toFixed());
  }
  throw new InvalidAmountError("not-a-decimal", preview(value), field);
}

/** Finite and at most four digits after the separator. Sign is not checked (see `assertPositive`). */
export function isWireAmount(value: Decimal): boolean {
  return value.isFinite() && value.decimalPlaces() <= WIRE_MAX_DECIMALS;
}

/** Throws InvalidAmountError unless `isWireAmount(value)`. */
export function assertWireAmount(value: Decimal, field: string | null = null): void {
  if (!value.isFinite()) throw new InvalidAmountError("not-finite", preview(value), field);
  if (value.decimalPlaces() > WIRE_MAX_DECIMALS) {
    throw new InvalidAmountError("too-many-decimals", preview(value), field);
  }
}

/** Throws InvalidAmountError unless the value is strictly greater than zero. */
export function assertPositive(value: Decimal, field: string | null = null): void {
  if (!value.isFinite()) throw new InvalidAmountError("not-finite", preview(value), field);
  if (!value.greaterThan(0)) throw new InvalidAmountError("not-positive", preview(value), field);
}

/**
 * The plain-notation text of a wire amount ("62.5", "5000", "0.0001"): no exponent, no trailing zeros,
 * "0" for negative zero. Throws InvalidAmountError for amounts the platform cannot take.
 */
export function toWireString(value: Decimal, field: string | null = null): string {
  assertWireAmount(value, field);
  return value.isZero() ? "0" : value.toFixed();
}

/** Plain decimal string for any finite Decimal (boundary format: server -> client, CSV). */
export function toDecimalString(value: Decimal): string {
  if (!value.isFinite()) throw new InvalidAmountError("not-finite", preview(value), null);
  return value.isZero() ? "0" : value.toFixed();
}
