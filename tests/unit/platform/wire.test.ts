import { describe, expect, test } from "vitest";
import { parse as losslessParse } from "lossless-json";
import { InvalidAmountError } from "@/lib/money/decimal";
import {
  AMOUNT_DIGITS,
  LosslessNumber,
  RATE_DIGITS,
  WireSyntaxError,
  amountToWire,
  decimalFromWire,
  integerFromWire,
  isLosslessNumber,
  parseWireJson,
  stringifyWire,
  wireToRaw,
} from "@/lib/platform/wire";

describe("lossless parsing", () => {
  test.each(["0.0001", "1.875", "62.50", "5000", "922337203685477.5807", "80.00", "0"])(
    "%s is read exactly, without a float",
    (n) => {
      const value = parseWireJson(`{"amount":${n}}`) as { amount: unknown };
      expect(isLosslessNumber(value.amount)).toBe(true);
      const d = decimalFromWire(value.amount);
      expect(d?.equals(n)).toBe(true);
      // 922337203685477.5807 is not representable as a double
      if (n === "922337203685477.5807") expect(String(Number(n))).not.toBe(n);
    },
  );

  test("raw form keeps numbers as their exact text; stringifyWire round-trips the digits", () => {
    const text = `{"a":922337203685477.5807,"b":[62.50,null,true,"x"],"c":{"d":0}}`;
    const wire = parseWireJson(text);
    expect(wireToRaw(wire)).toEqual({
      a: "922337203685477.5807",
      b: ["62.50", null, true, "x"],
      c: { d: "0" },
    });
    expect(stringifyWire(wire)).toBe(text);
  });

  test("raw form keeps a __proto__ key as data: stored, not made the object's prototype", () => {
    const raw = wireToRaw(parseWireJson(`{"__proto__":{"status":"success","n":1},"id":"x"}`)) as object;
    expect(Object.getPrototypeOf(raw)).toBe(Object.prototype);
    expect((raw as { status?: unknown }).status).toBeUndefined();
    expect(JSON.stringify(raw)).toBe(`{"__proto__":{"status":"success","n":"1"},"id":"x"}`);
  });

  test("decimalFromWire accepts plain decimal strings and refuses JS numbers and junk", () => {
    expect(decimalFromWire("62.50")?.toFixed()).toBe("62.5");
    expect(decimalFromWire(62.5)).toBeNull();
    expect(decimalFromWire("1e3")).toBeNull();
    expect(decimalFromWire(null)).toBeNull();
    expect(decimalFromWire({})).toBeNull();
  });

  test("integerFromWire: safe integers only", () => {
    expect(integerFromWire(new LosslessNumber("42"))).toBe(42);
    expect(integerFromWire(new LosslessNumber("4.5"))).toBeNull();
    expect(integerFromWire(new LosslessNumber("9007199254740993"))).toBeNull();
    expect(integerFromWire(undefined)).toBeNull();
  });
});

// The spec: no scientific notation. `1e300000000`, a few bytes on the wire, is 300 million digits once
// written out in plain notation (the mirror compares and stores amounts that way).
describe("decimalFromWire: plain notation, within the digits the columns hold", () => {
  test.each([
    ["1e3"],
    ["1E+2"],
    ["12.5e3"],
    ["1e-4"],
    ["1e300000000"],
    [`1${"0".repeat(20)}`], // 21 digits before the separator: NUMERIC(24,4) holds 20
    [`0.${"1".repeat(29)}`],
  ])("%s is refused, as a JSON number and as a string", (literal) => {
    const { amount } = parseWireJson(`{"amount":${literal}}`) as { amount: unknown };
    expect(isLosslessNumber(amount)).toBe(true);
    expect(decimalFromWire(amount)).toBeNull();
    expect(decimalFromWire(literal)).toBeNull();
  });

  test("a string of a million digits is refused", () => {
    expect(decimalFromWire("9".repeat(1_000_000))).toBeNull();
  });

  test("the largest amount and rate their columns hold, rounded, are read exactly, and no larger", () => {
    const amount = `-${"9".repeat(19)}.${"1".repeat(28)}`;
    expect(decimalFromWire(new LosslessNumber(amount))?.toFixed()).toBe(amount);
    expect(decimalFromWire(new LosslessNumber(amount), RATE_DIGITS)).toBeNull();
    const rate = `${"9".repeat(15)}.12345678`;
    expect(decimalFromWire(new LosslessNumber(rate), RATE_DIGITS)?.toFixed()).toBe(rate);
    expect(decimalFromWire(new LosslessNumber(`1${rate}`), RATE_DIGITS)).toBeNull();
    expect(decimalFromWire(new LosslessNumber(`1${amount.slice(1)}`))).toBeNull();
    expect(AMOUNT_DIGITS).toEqual({ integer: 19, fraction: 28 });
  });
});

describe("parseWireJson: a byte order mark, and what it says of invalid JSON", () => {
  test("one leading byte order mark is ignored (RFC 8259 lets a receiver); two are not JSON", () => {
    expect(parseWireJson('\uFEFF{"n":1.50}')).toEqual({ n: new LosslessNumber("1.50") });
    expect(parseWireJson('\uFEFF{"s":"\\u0001"}')).toEqual({ s: "\u0001" });
    expect(() => parseWireJson("\uFEFF\uFEFF{}")).toThrow(WireSyntaxError);
  });

  // lossless-json quotes the whole number it could not read, V8 the text around the error
  test.each([
    ['{"number":4276123456789012.}', "invalid number at position 27"],
    ['{"number":"4276123456789012" 1}', "comma expected at position 29"],
    ['{"number":4276123456789012 x}', "comma expected at position 27"],
    ['{"number":"4276123456789012', "unterminated string, end of input reached at position 27"],
    ['\uFEFF{"number":4276123456789012.}', "invalid number at position 28"],
    ["<html>4276123456789012</html>", "value expected at position 0"],
  ])("%s: %s, and nothing of the text", (text, message) => {
    let error: unknown;
    try {
      parseWireJson(text);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(WireSyntaxError);
    expect(error).toBeInstanceOf(SyntaxError);
    expect((error as Error).message).toBe(message);
    expect((error as Error).message).not.toMatch(/\d{5}/);
  });
});

describe("amountToWire", () => {
  test.each([
    ["0.0001", "0.0001"],
    ["1.875", "1.875"],
    ["62.50", "62.5"],
    ["5000", "5000"],
    ["922337203685477.5807", "922337203685477.5807"],
  ])("%s is written as the JSON number %s", (input, expected) => {
    expect(stringifyWire({ amount: amountToWire(input, "amount") })).toBe(`{"amount":${expected}}`);
  });

  test.each([
    ["1.23456", "too-many-decimals"],
    ["1e3", "not-a-decimal"],
    ["-1", "not-positive"],
    ["0", "not-positive"],
    ["NaN", "not-a-decimal"],
    [Number.NaN, "not-a-decimal"],
    [62.5, "not-a-decimal"],
  ])("%s is refused (%s)", (input, reason) => {
    try {
      amountToWire(input, "amount");
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(InvalidAmountError);
      expect((e as InvalidAmountError).reason).toBe(reason);
      expect((e as InvalidAmountError).field).toBe("amount");
    }
  });
});

describe("parseWireJson fast path (native JSON.parse with numbers kept as text)", () => {
  test.each([
    ['{"a":922337203685477.5807,"b":[0,-1.5,2e3,0.0001],"c":"1.5","d":"x\\"1\\"y"}'],
    ['[{"n":-0.0}, {"n":1E+2}, true, false, null, "minus - in text", "5"]'],
    ['{"text":"\\\\u0001 is not an escape here","n":1}'],
  ])("gives the same result as lossless-json for %s", (text) => {
    expect(parseWireJson(text)).toEqual(losslessParse(text));
  });

  test("a string holding \\u0001 still parses exactly (slow path)", () => {
    const text = '{"s":"a\\u0001b","n":62.50}';
    const value = parseWireJson(text) as { s: string; n: LosslessNumber };
    expect(value.s).toBe("a\u0001b");
    expect(value.n.value).toBe("62.50");
  });

  test.each(["[01]", "[1.]", "[-]", "[.5]", '{"a":1,}', "[1 2]"])("refuses invalid JSON %s", (text) => {
    expect(() => parseWireJson(text)).toThrow();
  });
});
