/**
 * The one display formatter for amounts and rates. Client-safe, deterministic (no Intl, no locale
 * data, so server and browser render the same text), never goes through a JS float.
 *
 * Locales: ru "2 609,78 RUB" (no-break space between groups, decimal comma), en "2,609.78 RUB".
 *
 * Amounts: grouped thousands, at least `minimumFractionDigits` (2) decimals, and up to
 * `maximumFractionDigits` (4, the platform's precision) when the amount has them. A platform amount
 * (at most 4 decimals) is therefore never rounded for display: 1.875 shows as "1.875", 62.5 as
 * "62.50", 0.0001 as "0.0001". Only computed values with more than 4 decimals are rounded, half up.
 *
 * It works on the amount's decimal text (BigInt for the one rounding step), not with decimal.js: every
 * page that shows money imports it, and the arithmetic library would add 13.6 kB (gzip) to each.
 */
import type { Locale } from "@/lib/i18n/locales";
import type { Decimal } from "./decimal";
import { plainDecimalText } from "./decimal-text";

export interface NumberFormatOptions {
  /** The separators of the language; default "en". */
  locale?: Locale;
  /** Decimals always shown (padded with zeros). */
  minimumFractionDigits?: number;
  /** Decimals shown at most; more are rounded half up. */
  maximumFractionDigits?: number;
  /** Between thousands groups; default the locale's. */
  groupSeparator?: string;
  /** Default the locale's. */
  decimalSeparator?: string;
}

export interface MoneyFormatOptions extends NumberFormatOptions {
  /** "code" appends the currency code ("62.50 RUB"); "none" shows the number only. */
  currencyDisplay?: "code" | "none";
}

export interface RateFormatOptions extends NumberFormatOptions {
  /** With both set the result reads "1 USDT = 95.12 RUB". */
  from?: string;
  to?: string;
}

const NBSP = "\u00a0";

const SEPARATORS: Record<Locale, { group: string; point: string }> = {
  ru: { group: NBSP, point: "," },
  en: { group: ",", point: "." },
};

/** Plain decimal text rounded half away from zero to `places` decimals: its sign and digits. */
function roundHalfUp(text: string, places: number) {
  const negative = text.startsWith("-");
  const [int = "0", frac = ""] = (negative ? text.slice(1) : text).split(".");
  let scaled = BigInt(int + frac.slice(0, places).padEnd(places, "0"));
  if (frac.charCodeAt(places) >= 53 /* "5" */) scaled += 1n;
  const digits = scaled.toString().padStart(places + 1, "0");
  const cut = digits.length - places;
  return { negative: negative && scaled !== 0n, int: digits.slice(0, cut), frac: digits.slice(cut) };
}

function formatDecimal(
  value: string | Decimal,
  opts: NumberFormatOptions,
  defaults: { min: number; max: number },
): string {
  const min = opts.minimumFractionDigits ?? defaults.min;
  const max = Math.max(opts.maximumFractionDigits ?? defaults.max, min);
  const separators = SEPARATORS[opts.locale ?? "en"];
  const group = opts.groupSeparator ?? separators.group;
  const point = opts.decimalSeparator ?? separators.point;

  const rounded = roundHalfUp(plainDecimalText(value), max);
  let frac = rounded.frac.replace(/0+$/, "");
  if (frac.length < min) frac = frac.padEnd(min, "0");
  const grouped = rounded.int.replace(/\B(?=(\d{3})+(?!\d))/g, group);
  return `${rounded.negative ? "-" : ""}${grouped}${frac ? point + frac : ""}`;
}

/**
 * "5,000.00 RUB", "1.875 USDT", "-62.50 RUB" (en); "5 000,00 RUB" (ru). `amount` is a Decimal or a plain decimal string;
 * anything else (a float, "1e3", "NaN") throws InvalidAmountError. `currency` is shown as given
 * (including "NotSet"); an empty currency shows the number only.
 */
export function formatMoney(
  amount: string | Decimal,
  currency: string,
  opts: MoneyFormatOptions = {},
): string {
  const text = formatDecimal(amount, opts, { min: 2, max: 4 });
  const code = currency.trim();
  if (opts.currencyDisplay === "none" || code === "") return text;
  return `${text}${NBSP}${code}`;
}

/**
 * An exchange rate: at least 2 and at most 8 decimals by default (rates are informational, so more
 * decimals than 8 are rounded half up). With `from` and `to`: "1 USDT = 95.1234 RUB".
 */
export function formatRate(rate: string | Decimal, opts: RateFormatOptions = {}): string {
  const text = formatDecimal(rate, opts, { min: 2, max: 8 });
  if (opts.from && opts.to) return `1${NBSP}${opts.from} = ${text}${NBSP}${opts.to}`;
  return text;
}
