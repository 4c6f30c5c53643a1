// What the statements page hands to "Issue" and to the download links: the period it showed, as a custom
// period that names the same instants whenever it is resolved again.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { periodPresets, periodQuerySchema, resolvePeriod, shownPeriodQuery } from "@/lib/statements/periods";
import { localDayOf } from "@/lib/time/local-days";
import { AWKWARD_ZONES } from "../../support/zones";

const ZONES = AWKWARD_ZONES;
const presets = periodPresets.filter((p) => p !== "custom");

function resolved(query: Record<string, string | undefined>, now?: Date) {
  const r = resolvePeriod(periodQuerySchema.parse(query), now);
  if (!r.ok) throw new Error(r.problem);
  return r;
}

describe("a period of whole days", () => {
  it.each([
    ["America/Vancouver", "2026-12-01", "2026-12-01T08:00:00.000Z", "2026-12-02T08:00:00.000Z"],
    // Amman's clocks fell back from 01:00 to 00:00 on 29 October 2021: the 28th ends at the first midnight
    ["Asia/Amman", "2021-10-28", "2021-10-27T21:00:00.000Z", "2021-10-28T21:00:00.000Z"],
  ])("%s %s is every instant Node dates on it: [%s, %s)", (tz, day, from, to) => {
    const r = resolved({ period: "custom", tz, from: day, to: day });
    expect([r.period.from.toISOString(), r.period.to.toISOString()]).toEqual([from, to]);
    expect(localDayOf(new Date(r.period.to.getTime() - 1), tz)).toBe(day);
  });
});

describe("the period shown", () => {
  it.each([
    ["this-month", "2031-03-01T00:00:00.000Z", "2031-04-01T00:00:00.000Z"],
    ["last-month", "2031-02-01T00:00:00.000Z", "2031-03-01T00:00:00.000Z"],
    ["today", "2031-03-31T00:00:00.000Z", "2031-04-01T00:00:00.000Z"],
    ["last-30-days", "2031-03-02T00:00:00.000Z", "2031-03-31T23:59:59.000Z"],
  ])("%s drawn at 23:59:59 on 31 March names the same instants two seconds later", (preset, from, to) => {
    const drawn = resolved({ period: preset, tz: "UTC" }, new Date("2031-03-31T23:59:59Z"));
    const shown = shownPeriodQuery(drawn.period);
    const clicked = resolved(shown, new Date("2031-04-01T00:00:01Z"));
    expect({ from: clicked.period.from.toISOString(), to: clicked.period.to.toISOString() }).toEqual({
      from,
      to,
    });
  });

  it("is a custom period that resolves to the preset's instants at any later moment", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ZONES),
        fc.constantFrom(...presets),
        fc.integer({ min: Date.UTC(2019, 0, 1), max: Date.UTC(2032, 0, 1) }),
        fc.integer({ min: 0, max: 90 * 86_400_000 }),
        (tz, preset, drawnAt, later) => {
          const drawn = resolved({ period: preset, tz }, new Date(drawnAt));
          const shown = shownPeriodQuery(drawn.period);
          expect(shown.period).toBe("custom");
          expect(resolved(shown, new Date(drawnAt + later)).period).toEqual(drawn.period);
          // whole days need no instant; "last 30 days" ends where the page was drawn (unless at a midnight)
          if (preset !== "last-30-days") expect(shown.until).toBeUndefined();
          else expect([undefined, new Date(drawnAt).toISOString()]).toContain(shown.until);
          expect(shown.from).toBe(localDayOf(drawn.period.from, tz));
        },
      ),
      { numRuns: 3000, seed: 23 },
    );
  });
});

describe("a custom period cut short", () => {
  const days = { period: "custom", tz: "America/Vancouver", from: "2026-12-01", to: "2026-12-01" };

  it("ends at its instant, inside its days", () => {
    const r = resolved({ ...days, until: "2026-12-01T20:00:00.000Z" });
    expect(r.period).toEqual({
      from: new Date("2026-12-01T08:00:00Z"),
      to: new Date("2026-12-01T20:00:00Z"),
      tz: "America/Vancouver",
    });
  });

  it.each([
    ["2026-12-01T08:00:00.000Z", "untilOutside"],
    ["2026-12-02T08:00:00.001Z", "untilOutside"],
  ])("is refused when it ends at %s (%s)", (until, problem) => {
    expect(resolvePeriod(periodQuerySchema.parse({ ...days, until }))).toEqual({ ok: false, problem });
  });

  it.each(["2026-12-01", "2026-12-01T20:00:00+01:00", "tomorrow"])(
    "takes only a UTC instant, not %s",
    (until) => {
      const parsed = periodQuerySchema.safeParse({ ...days, until });
      expect(parsed.error?.issues.map((i) => i.message)).toEqual(["statements.period.instantFormat"]);
    },
  );
});
