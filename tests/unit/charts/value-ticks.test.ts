import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { valueTicks } from "@/lib/charts/value-ticks";

describe("the value axis", () => {
  test("the balance seen on the page: 2.5K to 48K gets a tick above 48K (the line was clipped)", () => {
    const ticks = valueTicks(2_500, 48_131.1772);
    expect(ticks[0]).toBeLessThanOrEqual(2_500);
    expect(ticks.at(-1)).toBeGreaterThanOrEqual(48_131.1772);
  });

  test.each([[0], [-100], [250]])("a single value %d sits inside the axis", (v) => {
    const ticks = valueTicks(v, v);
    expect(ticks[0]).toBeLessThanOrEqual(v);
    expect(ticks.at(-1)).toBeGreaterThanOrEqual(v);
    expect(ticks.length).toBeGreaterThan(1);
  });

  test("a range of 0.0001 at 99,999,999.998: every tick distinct (12 significant digits made two equal)", () => {
    const ticks = valueTicks(99_999_999.9982, 99_999_999.9983);
    expect(ticks[0]).toBeLessThanOrEqual(99_999_999.9982);
    expect(ticks.at(-1)).toBeGreaterThanOrEqual(99_999_999.9983);
    for (let i = 1; i < ticks.length; i++) expect(ticks[i]).toBeGreaterThan(ticks[i - 1]!);
  });

  test("any range of amounts (4 decimals): the ticks rise and hold every value", () => {
    const amount = fc.integer({ min: -1e12, max: 1e12 }).map((n) => n / 10_000);
    fc.assert(
      fc.property(amount, amount, (a, b) => {
        const [min, max] = a <= b ? [a, b] : [b, a];
        const ticks = valueTicks(min, max);
        expect(ticks[0]).toBeLessThanOrEqual(min);
        expect(ticks.at(-1)).toBeGreaterThanOrEqual(max);
        expect(ticks.length).toBeLessThanOrEqual(12);
        for (let i = 1; i < ticks.length; i++) expect(ticks[i]).toBeGreaterThan(ticks[i - 1]!);
      }),
      { numRuns: 2_000 },
    );
  });
});
