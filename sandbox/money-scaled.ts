import type { ComputedAmounts } from "./money";

/**
 * The same figures as computeAmounts() (money.ts) in exact BigInt arithmetic on values scaled by 10^4,
 * with ROUND_HALF_EVEN. Used for bulk seeding, where Decimal would dominate the time; the contract
 * tests check both give identical results.
 */

const SCALE = 4;
const TEN = 10n;

function scaled(text: string): { value: bigint; scale: number } {
  const negative = text.startsWith("-");
  const [whole = "0", fraction = ""] = (negative ? text.slice(1) : text).split(".");
  const value = BigInt(whole + fraction);
  return { value: negative ? -value : value, scale: fraction.length };
}

export function toScale4(text: string): bigint {
  const { value, scale } = scaled(text);
  return scale <= SCALE
    ? value * TEN ** BigInt(SCALE - scale)
    : divideHalfEven(value, TEN ** BigInt(scale - SCALE));
}

export function divideHalfEven(numerator: bigint, denominator: bigint): bigint {
  const quotient = numerator / denominator;
  const twiceRest = (numerator % denominator) * 2n;
  if (twiceRest > denominator || (twiceRest === denominator && quotient % 2n === 1n)) return quotient + 1n;
  return quotient;
}

export function scale4ToText(value: bigint): string {
  if (value < 0n) return `-${scale4ToText(-value)}`;
  const digits = value.toString().padStart(SCALE + 1, "0");
  const whole = digits.slice(0, -SCALE);
  const fraction = digits.slice(-SCALE).replace(/0+$/, "");
  return fraction === "" ? whole : `${whole}.${fraction}`;
}

/** Non-negative amounts, percent and rate as canonical decimal strings. */
export function computeAmountsScaled(
  amount: string,
  commissionPercent: string,
  rate: string,
): ComputedAmounts {
  const amount4 = toScale4(amount);
  const percent = scaled(commissionPercent);
  const commission4 = divideHalfEven(amount4 * percent.value, 100n * TEN ** BigInt(percent.scale));
  const rateScaled = scaled(rate);
  const rateFactor = TEN ** BigInt(rateScaled.scale);
  return {
    amountComission: scale4ToText(commission4),
    amountInCurrencyBalance: scale4ToText(divideHalfEven(amount4 * rateFactor, rateScaled.value)),
    amountComissionInCurrencyBalance: scale4ToText(
      divideHalfEven(commission4 * rateFactor, rateScaled.value),
    ),
    exchangeRate: scale4ToText(toScale4(rate)),
  };
}
