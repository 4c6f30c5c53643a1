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
import { InvalidAmountError, plainDecimalText, preview, WIRE_MAX_DECIMALS } from "./decimal-text";

export const Decimal = DecimalJs.clone({
  precision: 40,
  rounding: DecimalJs.ROUND_HALF_UP,
  // Keep toString() in plain notation for every realistic amount; toFixed() never uses exponents.
  toExpNeg: -40,
  toExpPos: 40,
});
export type Decimal = DecimalJs;

export {
  InvalidAmountError,
  isDecimalString,
  WIRE_MAX_DECIMALS,
  type InvalidAmountReason,
} from "./decimal-text";

/**
 * Converts a decimal string or a Decimal (also one from another decimal.js copy, e.g. Prisma.Decimal)
 * into this module's Decimal. Refuses exponent notation, NaN, Infinity and anything else that is not a
 * plain decimal string. Never goes through a JS float.
 */
export function toDecimal(value: string | Decimal, field: string | null = null): Decimal {
  // Through the plain text, so a Decimal from another decimal.js copy converts exactly.
  return new Decimal(plainDecimalText(value, field));
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
