// Card and phone checks at the edges of their patterns: a character outside the allowed ones before or
// after the digits is refused, never read as a digit; a leading space does not hide a plus.
import { describe, expect, test } from "vitest";
import { luhnValid } from "@/lib/payouts/luhn";
import { normaliseRuPhone } from "@/lib/payouts/phone";

describe("luhnValid refuses anything but digits, wherever it is", () => {
  test.each([
    ["0:", "a character after the digits (':' would count as 10)"],
    ["+0", "a character before the digits ('+' doubled would count as -10)"],
    ["4111111111111111 ", "a trailing space"],
    [" 4111111111111111", "a leading space"],
  ])("%j: %s", (digits) => {
    expect(luhnValid(digits)).toBe(false);
  });
});

describe("normaliseRuPhone refuses a character outside the pattern, wherever it is", () => {
  test.each([
    ["79123456789x", null],
    ["x79123456789", null],
    ["tel:79123456789", null],
    ["7912345678#9", null],
    [" +89123456789", null], // trimmed first: the plus still needs the country code 7
    [" +79123456789 ", "+79123456789"],
  ])("%j -> %j", (input, expected) => {
    expect(normaliseRuPhone(input)).toBe(expected);
  });
});
