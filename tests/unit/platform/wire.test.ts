import { describe, expect, test } from "vitest";
import { parse as losslessParse } from "lossless-json";
import { InvalidAmountError } from "@/lib/money/decimal";
import {
  LosslessNumber,
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
