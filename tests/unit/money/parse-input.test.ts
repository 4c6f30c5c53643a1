// An amount as a person types it, in either language: the decimal comma and the decimal point, groups
// of three separated by spaces (plain, no-break, narrow no-break, thin), a minus; refused: empty text,
// anything that is not a number, and spellings that mean different amounts in Russian and English.
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { Decimal } from "@/lib/money/decimal";
import { parseAmountInput } from "@/lib/money/parse-input";

describe("parseAmountInput: accepted, as the plain decimal string the platform gets", () => {
  test.each([
    // both separators
    ["1500,50", "1500.50"],
    ["1500.50", "1500.50"],
    ["0,5", "0.5"],
    ["0.0001", "0.0001"],
    ["1,5000", "1.5000"],
    ["0,500", "0.500"],
    ["1500.500", "1500.500"],
    ["1500", "1500"],
    ["0", "0"],
    // groups of three, with every kind of space a keyboard or a copy from a spreadsheet gives
    ["1 500,50", "1500.50"],
    ["1 500.50", "1500.50"],
    ["1\u00a0500,50", "1500.50"],
    ["1\u202f500,50", "1500.50"],
    ["1\u2009500,50", "1500.50"],
    ["1 000 000", "1000000"],
    ["12 345 678,9", "12345678.9"],
    // around the number
    ["  42 ", "42"],
    ["\u00a01500,50\u00a0", "1500.50"],
    // negative
    ["-1500,50", "-1500.50"],
    ["-1 500.5", "-1500.5"],
    ["-0,0001", "-0.0001"],
  ])("%j -> %j", (typed, value) => {
    expect(parseAmountInput(typed)).toEqual({ ok: true, value });
  });
});

describe("parseAmountInput: refused", () => {
  test.each([[""], ["   "], ["\u00a0"], ["\t\n"]])("empty: %j", (typed) => {
    expect(parseAmountInput(typed)).toEqual({ ok: false, reason: "empty" });
  });

  test.each([
    // both separators: 1.500,50 in Russian, 1,500.50 in English
    ["1.500,50"],
    ["1,500.50"],
    ["1 500.000,5"],
    // one separator, used twice
    ["1.500.000"],
    ["1,500,000"],
    // a group of three after a non-zero integer of one to three digits: thousands or decimals?
    ["1,500"],
    ["1.500"],
    ["12,345"],
    ["999.999"],
    ["-1,500"],
    // zeros in front do not make it a decimal: 01,500 is 1,500 (only a whole part of exactly 0 is)
    ["01,500"],
    ["00001,500"],
    ["01.500"],
    ["-01,500"],
    ["0999.999"],
    ["00,500"],
    ["000.500"],
    ["0 001,500"],
  ])("ambiguous: %j", (typed) => {
    expect(parseAmountInput(typed)).toEqual({ ok: false, reason: "ambiguous" });
  });

  test.each([
    ["abc"],
    ["1e3"],
    ["Infinity"],
    ["0x10"],
    ["+5"],
    ["--5"],
    ["1500,"],
    [",5"],
    [".5"],
    ["1 50"],
    ["15 00,5"],
    ["1,5 0"],
    ["1'500"],
    ["1_500"],
    ["١٥٠٠"],
    ["1500 RUB"],
  ])("not a number: %j", (typed) => {
    expect(parseAmountInput(typed)).toEqual({ ok: false, reason: "notANumber" });
  });
});

describe("parseAmountInput: properties", () => {
  const digits = (minLength: number, maxLength: number) =>
    fc.string({ unit: fc.constantFrom(..."0123456789"), minLength, maxLength });
  const separator = fc.constantFrom(".", ",");
  const zeros = fc.integer({ min: 1, max: 6 }).map((n) => "0".repeat(n));

  test("one to three digits, not all zeros, then one separator and three digits: ambiguous, zeros in front or not", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 999 }),
        fc.option(zeros, { nil: "" }),
        separator,
        digits(3, 3),
        fc.boolean(),
        (whole, front, sep, fraction, minus) => {
          const typed = `${minus ? "-" : ""}${front}${whole}${sep}${fraction}`;
          expect(parseAmountInput(typed)).toEqual({ ok: false, reason: "ambiguous" });
        },
      ),
    );
  });

  test("zeros in front never change the verdict or the amount of a number whose whole part is not 0", () => {
    fc.assert(
      fc.property(
        digits(1, 9).filter((w) => /[1-9]/.test(w)),
        fc.option(fc.tuple(separator, digits(1, 6)), { nil: undefined }),
        zeros,
        (whole, tail, front) => {
          const plain = `${whole}${tail ? `${tail[0]}${tail[1]}` : ""}`;
          const without = parseAmountInput(plain);
          const withZeros = parseAmountInput(`${front}${plain}`);
          expect(withZeros.ok).toBe(without.ok);
          if (without.ok && withZeros.ok)
            expect(new Decimal(withZeros.value).equals(without.value)).toBe(true);
          else expect(withZeros).toEqual(without);
        },
      ),
    );
  });

  test("a whole part of exactly 0 with three decimals is a decimal: 0,500 is 0.5", () => {
    fc.assert(
      fc.property(separator, digits(3, 3), (sep, fraction) => {
        expect(parseAmountInput(`0${sep}${fraction}`)).toEqual({ ok: true, value: `0.${fraction}` });
      }),
    );
  });
});
