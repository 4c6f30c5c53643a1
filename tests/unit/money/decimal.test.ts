import { Decimal as ForeignDecimal } from "decimal.js";
import { describe, expect, test } from "vitest";
import {
  Decimal,
  InvalidAmountError,
  assertPositive,
  assertWireAmount,
  isDecimalString,
  isWireAmount,
  toDecimal,
  toDecimalString,
  toWireString,
} from "@/lib/money/decimal";

describe("Decimal configuration", () => {
  test("precision 40, ROUND_HALF_UP", () => {
    expect(Decimal.precision).toBe(40);
    expect(Decimal.rounding).toBe(Decimal.ROUND_HALF_UP);
    expect(new Decimal("2.5").toDecimalPlaces(0).toFixed()).toBe("3");
    expect(new Decimal("-2.5").toDecimalPlaces(0).toFixed()).toBe("-3");
    expect(new Decimal("1").div(3).toFixed()).toBe("0." + "3".repeat(40));
  });

  test("no float drift: 0.1 + 0.2 = 0.3", () => {
    expect(new Decimal("0.1").plus("0.2").equals("0.3")).toBe(true);
  });
});

describe("toDecimal", () => {
  test.each([
    ["0.0001", "0.0001"],
    ["1.875", "1.875"],
    ["62.50", "62.5"],
    ["5000", "5000"],
    ["922337203685477.5807", "922337203685477.5807"],
    ["-1", "-1"],
    ["0", "0"],
  ])("parses %s exactly", (input, expected) => {
    expect(toDecimal(input).toFixed()).toBe(expected);
  });

  test.each(["1e3", "1E-2", "NaN", "Infinity", "", " 1", "1 ", "1.", ".5", "+1", "1,5", "0x10", "1_000"])(
    "refuses %j",
    (input) => {
      expect(isDecimalString(input)).toBe(false);
      expect(() => toDecimal(input, "amount")).toThrow(InvalidAmountError);
    },
  );

  test("converts a Decimal from another decimal.js copy exactly (e.g. Prisma.Decimal)", () => {
    const foreign = new ForeignDecimal("922337203685477.5807");
    const d = toDecimal(foreign);
    expect(d.toFixed()).toBe("922337203685477.5807");
  });

  test("refuses a JS number at runtime (a float may already have lost digits)", () => {
    expect(() => toDecimal(0.1 as unknown as string)).toThrow(InvalidAmountError);
  });

  test("refuses a non-finite Decimal", () => {
    expect(() => toDecimal(new Decimal(NaN))).toThrow(/not a finite number/);
  });

  test("names the field in the error", () => {
    try {
      toDecimal("1e3", "amount");
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(InvalidAmountError);
      expect((e as InvalidAmountError).field).toBe("amount");
      expect((e as InvalidAmountError).reason).toBe("not-a-decimal");
    }
  });
});

describe("wire amounts", () => {
  test.each([
    ["0.0001", true],
    ["1.875", true],
    ["62.50", true],
    ["5000", true],
    ["922337203685477.5807", true],
    ["-1", true], // sign is not a wire concern (assertPositive is)
    ["1.23456", false],
    ["0.00001", false],
  ])("isWireAmount(%s) = %s", (input, ok) => {
    expect(isWireAmount(new Decimal(input))).toBe(ok);
  });

  test.each([NaN, Infinity, -Infinity])("isWireAmount(%s) = false", (n) => {
    expect(isWireAmount(new Decimal(n))).toBe(false);
    expect(() => assertWireAmount(new Decimal(n))).toThrow(InvalidAmountError);
  });

  test("assertWireAmount reports too many decimals with the field", () => {
    expect(() => assertWireAmount(new Decimal("1.23456"), "amount")).toThrow(/amount: more than 4 digits/);
  });

  test.each([
    ["62.50", "62.5"],
    ["1e3", "1000"],
    ["1e-4", "0.0001"],
    ["1e25", "10000000000000000000000000"],
    ["-0", "0"],
    ["922337203685477.5807", "922337203685477.5807"],
  ])("toWireString(%s) = %s (plain notation)", (input, expected) => {
    const text = toWireString(new Decimal(input));
    expect(text).toBe(expected);
    expect(text).not.toMatch(/e/i);
  });

  test("toWireString refuses more than four decimals", () => {
    expect(() => toWireString(new Decimal("1.23456"))).toThrow(InvalidAmountError);
  });

  test.each(["0", "-1", "-0.0001"])("assertPositive refuses %s", (input) => {
    expect(() => assertPositive(new Decimal(input), "amount")).toThrow(/must be greater than zero/);
  });

  test("toDecimalString gives plain text even for tiny values", () => {
    expect(toDecimalString(new Decimal("1e-9"))).toBe("0.000000001");
    expect(() => toDecimalString(new Decimal(Infinity))).toThrow(InvalidAmountError);
  });
});
