// Money at its edges: zero and negative zero, four and five decimals, 19 integer digits, the rate
// formatter with and without currencies (never "undefined" in the text), and the exact error texts.
import { describe, expect, test } from "vitest";
import {
  Decimal,
  InvalidAmountError,
  WIRE_MAX_DECIMALS,
  assertPositive,
  assertWireAmount,
  isDecimalString,
  isWireAmount,
  toDecimal,
  toDecimalString,
  toWireString,
} from "@/lib/money/decimal";
import { formatMoney, formatRate } from "@/lib/money/format";

const NB = "\u00a0";
const nb = (s: string) => s.replace(/ /g, NB);
const NINETEEN = "1234567890123456789";

function thrown(run: () => unknown): InvalidAmountError {
  try {
    run();
  } catch (e) {
    if (e instanceof InvalidAmountError) return e;
    throw e;
  }
  throw new Error("expected an InvalidAmountError");
}

describe("decimal helpers at the edges", () => {
  test.each([
    ["0", true],
    ["-0", true],
    ["00", true],
    ["0.0000", true],
    ["1.0001", true],
    ["1.00001", true], // a decimal string; the wire is checked elsewhere
    [NINETEEN, true],
    [`${NINETEEN}.9999`, true],
    ["-", false],
    ["1.", false],
    [".5", false],
    ["-.5", false],
    ["1..2", false],
    ["１", false], // a full-width digit
    ["1\n", false],
  ])("isDecimalString(%j) = %s", (text, ok) => {
    expect(isDecimalString(text)).toBe(ok);
  });

  test.each([
    ["0", "0"],
    ["-0", "0"],
    ["0.0000", "0"],
    ["-0.0000", "0"],
    ["0.0001", "0.0001"],
    ["-0.0001", "-0.0001"],
    [NINETEEN, NINETEEN],
    [`${NINETEEN}.1234`, `${NINETEEN}.1234`],
    [`-${NINETEEN}.0001`, `-${NINETEEN}.0001`],
  ])("toDecimal then toDecimalString: %s -> %s (no float, no exponent)", (text, expected) => {
    expect(toDecimalString(toDecimal(text))).toBe(expected);
  });

  test.each([
    ["0", "0"],
    ["-0", "0"],
    ["1.2345", "1.2345"],
    ["1.2340", "1.234"],
    [`${NINETEEN}.1234`, `${NINETEEN}.1234`],
  ])("toWireString(%s) = %s", (text, expected) => {
    expect(toWireString(new Decimal(text))).toBe(expected);
  });

  test.each([
    ["1.2345", true],
    ["1.23456", false],
    ["0.00001", false],
    ["1.23450", true], // trailing zeros are not digits that matter
    [`${NINETEEN}.1234`, true],
    [`${NINETEEN}.12345`, false],
  ])("isWireAmount(%s) = %s (at most four decimals)", (text, ok) => {
    expect(isWireAmount(new Decimal(text))).toBe(ok);
    if (ok) expect(() => assertWireAmount(new Decimal(text))).not.toThrow();
    else expect(thrown(() => assertWireAmount(new Decimal(text))).reason).toBe("too-many-decimals");
  });

  test("four decimals is the platform's precision", () => {
    expect(WIRE_MAX_DECIMALS).toBe(4);
  });

  test.each([
    ["0.0001", true],
    [NINETEEN, true],
    ["0", false],
    ["-0", false],
    ["-0.0001", false],
  ])("assertPositive(%s) passes: %s", (text, ok) => {
    if (ok) expect(() => assertPositive(new Decimal(text))).not.toThrow();
    else expect(thrown(() => assertPositive(new Decimal(text))).reason).toBe("not-positive");
  });

  test.each([NaN, Infinity, -Infinity])("%s is not finite for every helper", (n) => {
    const d = new Decimal(n);
    expect(thrown(() => assertPositive(d)).reason).toBe("not-finite");
    expect(thrown(() => assertWireAmount(d)).reason).toBe("not-finite");
    expect(thrown(() => toWireString(d)).reason).toBe("not-finite");
    expect(thrown(() => toDecimalString(d)).reason).toBe("not-finite");
    expect(thrown(() => toDecimal(d)).reason).toBe("not-finite");
  });

  test("error texts: the field, the reason in words, the value (cut at 64 characters)", () => {
    expect(thrown(() => toDecimal("1e3", "amount")).message).toBe(
      'amount: not a plain decimal number (got "1e3")',
    );
    expect(thrown(() => assertWireAmount(new Decimal("1.23456"))).message).toBe(
      'more than 4 digits after the separator (got "1.23456")',
    );
    expect(thrown(() => assertPositive(new Decimal("-0.5"), "amount")).message).toBe(
      'amount: must be greater than zero (got "-0.5")',
    );
    expect(thrown(() => toDecimalString(new Decimal(Infinity))).message).toBe(
      'not a finite number (got "Infinity")',
    );
    const long = "9".repeat(70) + "x";
    const e = thrown(() => toDecimal(long, "amount"));
    expect(e.value).toBe(`${"9".repeat(64)}…`);
    expect(e).toMatchObject({ name: "InvalidAmountError", field: "amount", reason: "not-a-decimal" });
    expect(thrown(() => toDecimal(12 as unknown as string))).toMatchObject({
      reason: "not-a-decimal",
      value: "12",
    });
    expect(thrown(() => toDecimal(null as unknown as string)).field).toBeNull();
    expect(thrown(() => toDecimal("9".repeat(64) + "x")).value).toBe(`${"9".repeat(64)}…`);
    expect(thrown(() => toDecimal("9".repeat(63) + "x")).value).toBe(`${"9".repeat(63)}x`);
  });

  test("Decimal keeps plain notation for tiny and huge values", () => {
    expect(new Decimal("1e-39").toString()).toBe(`0.${"0".repeat(38)}1`);
    expect(new Decimal("1e39").toString()).toBe(`1${"0".repeat(39)}`);
  });
});

describe("formatMoney at the edges", () => {
  test.each([
    ["0", "0.00 RUB"],
    ["-0", "0.00 RUB"],
    ["-0.0000", "0.00 RUB"],
    ["1.2345", "1.2345 RUB"],
    ["1.2340", "1.234 RUB"],
    ["100", "100.00 RUB"],
    ["999.999", "999.999 RUB"],
    [NINETEEN, "1,234,567,890,123,456,789.00 RUB"],
    [`-${NINETEEN}.5`, "-1,234,567,890,123,456,789.50 RUB"],
    ["123", "123.00 RUB"],
    ["1234", "1,234.00 RUB"],
    ["-1", "-1.00 RUB"],
  ])("%s -> %s", (amount, expected) => {
    expect(formatMoney(amount, "RUB")).toBe(nb(expected));
  });

  test.each([
    [new Decimal("1.23455"), "1.2346 RUB"], // half up
    [new Decimal("1.23445"), "1.2345 RUB"],
    [new Decimal("-1.23455"), "-1.2346 RUB"], // away from zero
    [new Decimal("0.00004"), "0.00 RUB"],
    [new Decimal("-0.00004"), "0.00 RUB"], // rounds to zero: no minus sign
    [new Decimal("9.99995"), "10.00 RUB"],
  ])("a computed %s with five decimals -> %s", (amount, expected) => {
    expect(formatMoney(amount, "RUB")).toBe(nb(expected));
  });

  test("a currency of blanks shows the number only; the code is trimmed", () => {
    expect(formatMoney("5", "   ")).toBe("5.00");
    expect(formatMoney("5", " RUB ")).toBe(`5.00${NB}RUB`);
    expect(formatMoney("5", "RUB", { currencyDisplay: "code" })).toBe(`5.00${NB}RUB`);
  });

  test("a minimum above the maximum wins; a maximum of 0 rounds to whole units", () => {
    expect(formatMoney("1.5", "", { minimumFractionDigits: 3, maximumFractionDigits: 1 })).toBe("1.500");
    expect(formatMoney("1.25", "", { minimumFractionDigits: 2, maximumFractionDigits: 1 })).toBe("1.25");
    expect(formatMoney("2.5", "", { minimumFractionDigits: 0, maximumFractionDigits: 0 })).toBe("3");
    expect(formatMoney("1.25", "", { maximumFractionDigits: 6 })).toBe("1.25");
    expect(formatMoney("1.1234567", "", { maximumFractionDigits: 6 })).toBe("1.123457");
  });

  test("separators: none between groups, a comma for decimals", () => {
    expect(formatMoney(NINETEEN, "", { groupSeparator: "" })).toBe(`${NINETEEN}.00`);
    expect(formatMoney("1234.5", "", { decimalSeparator: ",", groupSeparator: "." })).toBe("1.234,50");
  });
});

describe("formatRate with and without currencies", () => {
  test.each([
    [{}, "95.12"],
    [{ from: "USDT" }, "95.12"],
    [{ to: "RUB" }, "95.12"],
    [{ from: "", to: "RUB" }, "95.12"],
    [{ from: "USDT", to: "" }, "95.12"],
    [{ from: "USDT", to: "RUB" }, `1${NB}USDT = 95.12${NB}RUB`],
  ])("%j -> %s", (opts, expected) => {
    const text = formatRate("95.12", opts);
    expect(text).toBe(expected);
    expect(text).not.toMatch(/undefined|null/);
  });

  test.each([
    ["0", "0.00"],
    ["-0", "0.00"],
    ["0.123456785", "0.12345679"], // 8 decimals, half up
    ["0.123456784", "0.12345678"],
    ["0.00000001", "0.00000001"],
    ["0.000000001", "0.00"],
    ["95.1", "95.10"],
    [NINETEEN, "1,234,567,890,123,456,789.00"],
  ])("formatRate(%s) = %s", (rate, expected) => {
    expect(formatRate(rate)).toBe(nb(expected));
  });

  test("options reach the rate too", () => {
    expect(formatRate("1234.5", { groupSeparator: ",", minimumFractionDigits: 0 })).toBe("1,234.5");
    expect(formatRate(new Decimal("95.123456789"), { maximumFractionDigits: 2 })).toBe("95.12");
  });

  test.each(["1e3", "NaN", "", " 95"])("refuses %j", (bad) => {
    expect(() => formatRate(bad)).toThrow(InvalidAmountError);
  });
});
