import { describe, expect, test } from "vitest";
import { Decimal, InvalidAmountError } from "@/lib/money/decimal";
import { formatMoney, formatRate } from "@/lib/money/format";

const NB = "\u00a0";
/** Test tables use plain spaces; the formatter uses no-break spaces. */
const nb = (s: string) => s.replace(/ /g, NB);

describe("formatMoney", () => {
  test.each([
    ["5000", "RUB", "5,000.00 RUB"],
    ["62.50", "RUB", "62.50 RUB"],
    ["1.875", "USDT", "1.875 USDT"],
    ["0.0001", "RUB", "0.0001 RUB"],
    ["922337203685477.5807", "RUB", "922,337,203,685,477.5807 RUB"],
    ["-1234.5", "RUB", "-1,234.50 RUB"],
    ["0", "USDT", "0.00 USDT"],
    ["100", "NotSet", "100.00 NotSet"],
    ["999", "", "999.00"],
    ["1000000", "KZT", "1,000,000.00 KZT"],
  ])("formatMoney(%s, %j) = %s", (amount, currency, expected) => {
    expect(formatMoney(amount, currency)).toBe(nb(expected));
  });

  test("four-decimal amounts are never rounded for display", () => {
    for (const a of ["0.0001", "1.9999", "12345.6789"]) {
      const shown = formatMoney(a, "RUB", { currencyDisplay: "none", groupSeparator: "" });
      expect(shown).toBe(a);
    }
  });

  test("accepts Decimal, including values from arithmetic", () => {
    expect(formatMoney(new Decimal("0.1").plus("0.2"), "RUB")).toBe(nb("0.30 RUB"));
  });

  test("computed values beyond four decimals are rounded half up", () => {
    expect(formatMoney(new Decimal("1.00005"), "RUB")).toBe(nb("1.0001 RUB"));
    expect(formatMoney(new Decimal("1").div(3), "RUB")).toBe(nb("0.3333 RUB"));
  });

  test("options: separators, no currency, fraction digits", () => {
    expect(formatMoney("1234567.5", "RUB", { groupSeparator: ",", currencyDisplay: "none" })).toBe(
      "1,234,567.50",
    );
    expect(formatMoney("1234.5", "RUB", { groupSeparator: " ", decimalSeparator: "," })).toBe(
      `1 234,50${NB}RUB`,
    );
    expect(formatMoney("5000", "RUB", { minimumFractionDigits: 0 })).toBe(nb("5,000 RUB"));
  });

  test.each(["1e3", "NaN", "1,5", ""])("refuses %j", (bad) => {
    expect(() => formatMoney(bad, "RUB")).toThrow(InvalidAmountError);
  });
});

describe("formatRate", () => {
  test.each([
    ["93.75", "93.75"],
    ["95.123456789", "95.12345679"],
    ["0", "0.00"],
    ["0.0123", "0.0123"],
    ["1000", "1,000.00"],
  ])("formatRate(%s) = %s", (rate, expected) => {
    expect(formatRate(rate)).toBe(nb(expected));
  });

  test("with currencies", () => {
    expect(formatRate(new Decimal("93.75"), { from: "USDT", to: "RUB" })).toBe(`1${NB}USDT = 93.75${NB}RUB`);
  });
});
