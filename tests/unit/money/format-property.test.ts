import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { Decimal } from "@/lib/money/decimal";
import { formatMoney, formatRate } from "@/lib/money/format";

// The formatter rounds on the amount's text (it stays out of decimal.js for the browser's sake). The
// oracle is the formatter as it was with decimal.js: ROUND_HALF_UP to the maximum, trailing zeros cut
// down to the minimum, thousands grouped.
function oracle(value: string, min: number, max: number): string {
  const rounded = new Decimal(value).toDecimalPlaces(max, Decimal.ROUND_HALF_UP);
  const negative = rounded.isNegative() && !rounded.isZero();
  const [int = "0", fracRaw = ""] = rounded.abs().toFixed(max).split(".");
  let frac = fracRaw.replace(/0+$/, "");
  if (frac.length < min) frac = frac.padEnd(min, "0");
  return `${negative ? "-" : ""}${int.replace(/\B(?=(\d{3})+(?!\d))/g, ",")}${frac ? `.${frac}` : ""}`;
}

const digits = (minLength: number, maxLength: number) =>
  fc.string({ unit: fc.constantFrom(..."0123456789"), minLength, maxLength });
// Plain decimal text as the wire and the database give it, leading zeros, "-0" and long tails included.
const decimalText = fc
  .tuple(fc.boolean(), digits(1, 22), fc.option(digits(1, 14), { nil: undefined }))
  .map(([minus, int, frac]) => `${minus ? "-" : ""}${int}${frac === undefined ? "" : `.${frac}`}`);
const places = fc.tuple(fc.integer({ min: 0, max: 6 }), fc.integer({ min: 0, max: 10 }));

describe("formatting on the text equals decimal.js's rounding", () => {
  test("any plain decimal, any minimum and maximum of decimals", () => {
    fc.assert(
      fc.property(decimalText, places, (value, [min, max]) => {
        const options = {
          minimumFractionDigits: min,
          maximumFractionDigits: max,
          currencyDisplay: "none" as const,
        };
        expect(formatMoney(value, "", options)).toBe(oracle(value, min, Math.max(min, max)));
      }),
      { numRuns: 2000 },
    );
  });

  test("a Decimal gives what its text gives, rates included", () => {
    fc.assert(
      fc.property(decimalText, (value) => {
        expect(formatMoney(new Decimal(value), "RUB")).toBe(formatMoney(value, "RUB"));
        expect(formatRate(new Decimal(value))).toBe(oracle(value, 2, 8));
      }),
      { numRuns: 500 },
    );
  });

  test("halves round away from zero; what rounds to zero has no sign", () => {
    expect(formatMoney("0.00005", "", { currencyDisplay: "none" })).toBe("0.0001");
    expect(formatMoney("-0.00005", "", { currencyDisplay: "none" })).toBe("-0.0001");
    expect(formatMoney("-0.00004", "", { currencyDisplay: "none" })).toBe("0.00");
    expect(formatMoney("999.99995", "", { currencyDisplay: "none" })).toBe("1,000.00");
    expect(formatRate("-0", { maximumFractionDigits: 0, minimumFractionDigits: 0 })).toBe("0");
  });
});
