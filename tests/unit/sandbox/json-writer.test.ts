// writeJson caches the quoted keys it writes (for the list endpoint's speed): its output must stay the
// hand-written writer's byte for byte, for every value. The oracle below is that writer as it was
// before the cache, copied verbatim (only its names changed).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { defaultMerchants } from "../../../sandbox/defaults";
import { num, WireNumber, writeJson } from "../../../sandbox/json";
import { operationWire } from "../../../sandbox/operation-view";
import { generateHistory } from "../../../sandbox/seed";
import { SandboxState } from "../../../sandbox/state";

function oracleJson(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (value instanceof WireNumber) return value.text;
  switch (typeof value) {
    case "string":
      return JSON.stringify(value);
    case "number":
      return Number.isFinite(value) ? String(value) : "null";
    case "boolean":
      return value ? "true" : "false";
    case "object":
      return Array.isArray(value) ? oracleArray(value) : oracleObject(value as Record<string, unknown>);
    default:
      return "null";
  }
}

function oracleArray(items: unknown[]): string {
  let out = "[";
  for (let index = 0; index < items.length; index++) {
    if (index > 0) out += ",";
    out += oracleJson(items[index]);
  }
  return out + "]";
}

function oracleObject(record: Record<string, unknown>): string {
  let out = "{";
  let first = true;
  for (const key in record) {
    const item = record[key];
    if (item === undefined) continue;
    if (!first) out += ",";
    first = false;
    out += JSON.stringify(key) + ":" + oracleJson(item);
  }
  return out + "}";
}

// Characters that JSON escapes or that look like an escape: U+0001, `\u0001` as text, quotes,
// backslashes, lone surrogates, line separators, non-Latin letters.
const unit = fc.oneof(
  fc.constantFrom(
    "\u0001",
    "\\u0001",
    "\\",
    '"',
    "\ud800",
    "\udc00",
    "\u2028",
    "\n",
    "\u0000",
    "ж",
    "😀",
    ":",
  ),
  fc.string({ unit: "binary", minLength: 1, maxLength: 1 }),
);
const text = fc.string({ unit, maxLength: 6 });
const key = fc.oneof(
  text,
  fc.constantFrom("__proto__", "toJSON", "constructor", "0", "10", "-1", "amount", "id"),
);

const decimal = fc
  .tuple(
    fc.boolean(),
    fc.bigInt({ min: 0n, max: 10n ** 20n }),
    fc.option(fc.bigInt({ min: 0n, max: 10n ** 8n })),
  )
  .map(
    ([negative, whole, fraction]) =>
      `${negative ? "-" : ""}${whole}${fraction === null ? "" : `.${fraction}`}`,
  );
// The writer trusts a WireNumber's text: whatever it holds is written as is.
const wireNumber = fc.oneof(decimal, text).map(num);

const leaf = fc.oneof(
  fc.constant(null),
  fc.constant(undefined),
  fc.boolean(),
  fc.integer(),
  fc.double(),
  fc.constantFrom(-0, NaN, Infinity, -Infinity, 1e21, 5e-324),
  text,
  wireNumber,
  wireNumber,
  // Not plain data: the writer's own answers (null, {}, for...in over inherited keys) must stay.
  fc.constantFrom(
    () => 1,
    Symbol("s"),
    10n,
    new Date(0),
    new String("ab"),
    new Number(1),
    new Map([[1, 2]]),
    Object.create({ inherited: 1 }) as object,
  ),
);

const { value } = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: "small", withCrossShrink: true }, leaf, tie("array"), tie("object")),
  array: fc.array(tie("value"), { maxLength: 5 }),
  object: fc.dictionary(key, tie("value"), { maxKeys: 5 }),
}));

describe("writeJson", () => {
  it("writes every value as the hand-written writer did", () => {
    fc.assert(
      fc.property(value, (input) => {
        expect(writeJson(input)).toBe(oracleJson(input));
      }),
      { numRuns: 2000 },
    );
  });

  it("writes a page of operations as before, WireNumbers unquoted", () => {
    const state = new SandboxState("secret", 0);
    const merchant = state.addMerchant(defaultMerchants()[0]!);
    const ops = generateHistory(merchant, {
      count: 300,
      days: 30,
      seed: 11,
      nowMs: Date.parse("2025-06-01T00:00:00Z"),
      firstSequence: 0,
    });
    const page = {
      status: "Success",
      data: ops.map((op) => operationWire(op)),
      totalNumberRecords: 300,
      traceID: "0b7c5a8e-0000-4000-8000-000000000000",
    };
    expect(new Set(ops.map((op) => op.typeOperation))).toEqual(new Set(["payIn", "payOut"]));
    const written = writeJson(page);
    expect(written).toBe(oracleJson(page));
    expect(written).toContain(`"amount":${ops[0]!.amount},`);
    expect(writeJson(page)).toBe(written);
  });

  it("escapes U+0001 and `\\u0001` text in keys and strings", () => {
    const input = { "a\u0001": "\u0001x", "b\\u0001": "\\u0001", n: num("1.50") };
    expect(writeJson(input)).toBe('{"a\\u0001":"\\u0001x","b\\\\u0001":"\\\\u0001","n":1.50}');
    expect(writeJson(input)).toBe(oracleJson(input));
  });

  it("keeps the writer's answers for a Date, a function, a symbol, a bigint and inherited keys", () => {
    const inherits = Object.assign(Object.create({ inherited: 1 }) as object, { own: 2 });
    const input = { at: new Date(0), f: () => 1, s: Symbol("s"), b: 10n, u: undefined, inherits };
    expect(writeJson(input)).toBe('{"at":{},"f":null,"s":null,"b":null,"inherits":{"own":2,"inherited":1}}');
    expect(writeJson([() => 1, undefined, -0, NaN])).toBe("[null,null,0,null]");
  });

  it("stays exact past its cache of keys", () => {
    for (let round = 0; round < 3; round++) {
      const input = Object.fromEntries(
        Array.from({ length: 1500 }, (_, index) => [`k"${round}\\${index}`, index]),
      );
      expect(writeJson(input)).toBe(oracleJson(input));
    }
  });
});
