// An amount as a person types it, in either language: the decimal comma and the decimal point, groups
// of three separated by spaces (plain, no-break, narrow no-break, thin), a minus; refused: empty text,
// anything that is not a number, and spellings that mean different amounts in Russian and English.
import { describe, expect, test } from "vitest";
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
