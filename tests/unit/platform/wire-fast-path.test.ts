// parseWireJson reads ordinary JSON with the native parser (numbers kept as their text) and falls back
// to lossless-json only for text it cannot handle exactly. Both paths give the same values; this file
// checks which path is taken, so that a fast path silently lost (everything through the slow parser)
// is noticed, and that the fast path agrees with lossless-json.
import * as lossless from "lossless-json";
import { beforeEach, describe, expect, test, vi } from "vitest";
import { WireSyntaxError, parseWireJson } from "@/lib/platform/wire";

vi.mock("lossless-json", async (importOriginal) => {
  const original = await importOriginal<typeof import("lossless-json")>();
  const slowCalls = { count: 0 };
  return {
    ...original,
    slowCalls,
    parse: (...args: Parameters<typeof original.parse>) => {
      slowCalls.count++;
      return original.parse(...args);
    },
  };
});

const slow = (lossless as unknown as { slowCalls: { count: number } }).slowCalls;
beforeEach(() => {
  slow.count = 0;
});

/** What lossless-json itself makes of the text (the reference). */
async function reference(text: string): Promise<unknown> {
  const original = await vi.importActual<typeof import("lossless-json")>("lossless-json");
  return original.parse(text);
}

describe("the fast path: ordinary JSON never reaches lossless-json", () => {
  test.each([
    ['{"a":1}'],
    ["[0, -0, 9, -9.5, 10.25, 1e5, 1E+5, 1e-5, -12.5e3, 922337203685477.5807]"],
    ['{"s":"digits 123 and -4.5e6 inside text","n":62.50}'],
    ['{"escaped":"quote \\" backslash \\\\ newline \\n unicode \\u0041 \\u00e9","n":1}'],
    ['{"ends in a backslash \\\\":"\\\\","n":[1,{"m":-2.5}],"after":"\\\\\\"3\\\\"}'],
    ['{"nested":{"list":[{"x":1},{"y":[2,3]}]},"t":true,"f":false,"z":null}'],
    ['  {"spaced" : 1 ,\n "out" : [ 2 ] }  '],
    ['"just text"'],
    ["42"],
  ])("%s", async (text) => {
    const value = parseWireJson(text);
    expect(slow.count).toBe(0);
    expect(value).toEqual(await reference(text));
  });
});

describe("the slow path: text the fast path cannot carry exactly", () => {
  test.each([
    ['{"s":"\\u0001","n":1}'], // the marker character itself in a string
    ['{"\\u0001":2}'], // ...or in a key
    ['["x\\u0001y", 3.0]'],
  ])("%s is read by lossless-json, exactly", async (text) => {
    const value = parseWireJson(text);
    expect(slow.count).toBe(1);
    expect(value).toEqual(await reference(text));
  });

  test.each([['{"s":"never closed, 12'], ['["a\\"]']])(
    "an unterminated string %s goes to lossless-json, which refuses it",
    (text) => {
      expect(() => parseWireJson(text)).toThrow();
      expect(slow.count).toBe(1);
    },
  );

  test.each([["[01]"], ["[1.]"], ["[-]"], ["[1e]"], ["[1-2]"], ["[--1]"], ["[-01]"], ["[1.5e]"]])(
    "an invalid number literal %s goes to lossless-json, which refuses it",
    (text) => {
      expect(() => parseWireJson(text)).toThrow();
      expect(slow.count).toBe(1);
    },
  );
});

// The native parser's message quotes the marked copy of the text: lossless-json reads it again, for the
// error's kind and position in the text itself.
test.each([["[.5]"], ["[+1]"], ['{"a":1,}']])(
  "%s is refused by the native parser, then located by lossless-json",
  (text) => {
    expect(() => parseWireJson(text)).toThrow(WireSyntaxError);
    expect(slow.count).toBe(1);
  },
);

test("a body after a byte order mark takes the fast path", async () => {
  const text = '{"n":62.50,"s":"x"}';
  expect(parseWireJson(`\uFEFF${text}`)).toEqual(await reference(text));
  expect(slow.count).toBe(0);
});

test("a __proto__ key stays an own property: numbers restored in place never reach a prototype", () => {
  const value = parseWireJson('{"__proto__":{"polluted":1},"list":[{"__proto__":[2]}]}') as Record<
    string,
    unknown
  >;
  expect(slow.count).toBe(0);
  expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
  expect(Object.keys(value)).toEqual(["__proto__", "list"]);
  expect(Object.getOwnPropertyDescriptor(value, "__proto__")?.value).toEqual({
    polluted: new lossless.LosslessNumber("1"),
  });
  expect((value as { polluted?: unknown }).polluted).toBeUndefined();
  expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
});

test("on the slow path too, a __proto__ key stays an own property", () => {
  const value = parseWireJson('{"__proto__":{"polluted":1},"s":"\\u0001"}') as Record<string, unknown>;
  expect(slow.count).toBe(1);
  expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
  expect(Object.keys(value)).toEqual(["__proto__", "s"]);
  expect((value as { polluted?: unknown }).polluted).toBeUndefined();
});
