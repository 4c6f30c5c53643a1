// The field readers' quick paths against what they replaced. Timestamps in the form toISOString() writes
// are read from their digits: the same moment as the native round trip, and refused (left to the general
// path) where the round trip fails. Decimals within so many digits each side: one pattern per limit,
// against the old length-and-split check.
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { Decimal } from "@/lib/money/decimal";
import { parsePlatformTimestamp } from "@/lib/platform/timestamps";
import { AMOUNT_DIGITS, RATE_DIGITS, decimalFromWire, type DecimalDigits } from "@/lib/platform/wire";

const digits = (minLength: number, maxLength: number) =>
  fc.string({ unit: fc.constantFrom(..."0123456789"), minLength, maxLength });

describe("timestamps in toISOString()'s form", () => {
  // The layout with each field at and around its bounds, from 1000 on: month 00 or 13, day 29–32 of any
  // month, 29 February of 1900, 2000 or 2100, hour 24, a 60th minute or second.
  const padded = (min: number, max: number, width: number) =>
    fc.integer({ min, max }).map((n) => String(n).padStart(width, "0"));
  const year = fc.oneof(
    fc.constantFrom("1000", "1900", "2000", "2024", "2025", "2100", "9999"),
    padded(1000, 9999, 4),
  );
  const layout = fc
    .tuple(
      year,
      padded(0, 13, 2),
      padded(0, 32, 2),
      padded(0, 24, 2),
      padded(0, 60, 2),
      padded(0, 60, 2),
      padded(0, 999, 3),
    )
    .map(([y, mo, d, h, mi, s, ms]) => `${y}-${mo}-${d}T${h}:${mi}:${s}.${ms}Z`);
  const nearReal = fc
    .date({
      min: new Date("1000-01-01T00:00:00Z"),
      max: new Date("9999-12-31T23:59:59Z"),
      noInvalidDate: true,
    })
    .map((date) => date.toISOString());

  test("read as the native parser's round trip reads them", () => {
    fc.assert(
      fc.property(fc.oneof(layout, nearReal), (text) => {
        const native = new Date(text);
        const roundTrip = !Number.isNaN(native.getTime()) && native.toISOString() === text;
        expect(parsePlatformTimestamp(text)?.getTime() ?? null).toBe(roundTrip ? native.getTime() : null);
      }),
      { numRuns: 20_000 },
    );
  });
});

describe("decimals within their digits", () => {
  // The check as it was: plain notation, length, then the parts' lengths.
  function oldWithin(text: string, limit: DecimalDigits): boolean {
    if (text.length > limit.integer + limit.fraction + 2 || !/^-?\d+(?:\.\d+)?$/.test(text)) return false;
    const [whole = "", fraction = ""] = text.replace(/^-/, "").split(".");
    return whole.length <= limit.integer && fraction.length <= limit.fraction;
  }
  const text = fc.oneof(
    fc
      .tuple(fc.boolean(), digits(0, 22), fc.option(digits(0, 31), { nil: undefined }))
      .map(([minus, int, frac]) => `${minus ? "-" : ""}${int}${frac === undefined ? "" : `.${frac}`}`),
    fc.string(),
    fc.constantFrom("1e5", "+1", " 1", "1 ", "1\n", "-", ".", "0x10", "١٢"),
  );

  test.each([
    ["amounts", AMOUNT_DIGITS],
    ["rates", RATE_DIGITS],
  ])("%s: taken exactly when the old check took them", (_name, limit) => {
    fc.assert(
      fc.property(text, (value) => {
        const read = decimalFromWire(value, limit);
        expect(read !== null).toBe(oldWithin(value, limit));
        if (read) expect(read.toFixed()).toBe(new Decimal(value).toFixed());
      }),
      { numRuns: 20_000 },
    );
  });
});
