import { Decimal } from "decimal.js";

/**
 * Exact decimal arithmetic for every amount of the sandbox. Rounding is ROUND_HALF_EVEN (banker's
 * rounding, the default of .NET's Math.Round on decimals, which the platform's wire behaviour suggests)
 * and applies everywhere a result is cut to four decimals.
 */
export const Money = Decimal.clone({
  precision: 64,
  rounding: Decimal.ROUND_HALF_EVEN,
  toExpNeg: -64,
  toExpPos: 64,
});

export type Money = Decimal;

export const WIRE_DECIMALS = 4;

/** Largest number of significant digits accepted (the range of a .NET decimal). */
const MAX_SIGNIFICANT_DIGITS = 28;

const JSON_NUMBER_WITHOUT_EXPONENT = /^-?(0|[1-9]\d*)(\.\d+)?$/;

export function money(value: string | number | Decimal): Decimal {
  return new Money(value);
}

export function round4(value: Decimal): Decimal {
  return value.toDecimalPlaces(WIRE_DECIMALS, Decimal.ROUND_HALF_EVEN);
}

/** Canonical wire text: dot separator, no exponent, at most four decimals, no trailing zeros. */
export function toWire(value: Decimal): string {
  const rounded = round4(value);
  return rounded.isZero() ? "0" : rounded.toFixed();
}

export type AmountCheck = { ok: true; value: string } | { ok: false; reason: string };

/**
 * Checks the literal text of a JSON number sent as an amount: positive, plain notation, at most four
 * decimals. Returns the canonical decimal string.
 */
export function checkAmountText(text: string): AmountCheck {
  if (!JSON_NUMBER_WITHOUT_EXPONENT.test(text)) {
    return { ok: false, reason: "must be written as a plain JSON number, without exponent" };
  }
  if (text.startsWith("-")) return { ok: false, reason: "must be greater than 0" };
  const fraction = text.split(".")[1] ?? "";
  if (fraction.length > WIRE_DECIMALS)
    return { ok: false, reason: "must have at most 4 digits after the decimal point" };
  const value = money(text);
  if (value.lte(0)) return { ok: false, reason: "must be greater than 0" };
  if (value.precision(true) > MAX_SIGNIFICANT_DIGITS) return { ok: false, reason: "is too large" };
  return { ok: true, value: toWire(value) };
}

export interface ComputedAmounts {
  amountComission: string;
  amountInCurrencyBalance: string;
  amountComissionInCurrencyBalance: string;
  exchangeRate: string;
}

/**
 * Commission (percent of the amount) and conversion to the balance currency with the merchant's rate
 * (payment-currency units per balance-currency unit). Each figure is rounded to four decimals on its own.
 */
export function computeAmounts(amount: string, commissionPercent: string, rate: string): ComputedAmounts {
  const value = money(amount);
  const commission = round4(value.times(commissionPercent).dividedBy(100));
  const rateValue = money(rate);
  return {
    amountComission: toWire(commission),
    amountInCurrencyBalance: toWire(value.dividedBy(rateValue)),
    amountComissionInCurrencyBalance: toWire(commission.dividedBy(rateValue)),
    exchangeRate: toWire(rateValue),
  };
}

/** Formats with exactly four decimals, for human-readable messages ("105.0000 USDT"). */
export function fixed4(value: Decimal): string {
  return round4(value).toFixed(WIRE_DECIMALS);
}
