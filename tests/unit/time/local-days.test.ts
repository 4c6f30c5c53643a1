// The days of a zone as Node counts them, which statements and the balance page bucket by (SQL only
// finds the index of the day an instant falls in): every instant of a range falls in the day it is dated.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { localDayOf, localDays, startOfLocalDay } from "@/lib/time/local-days";

const ZONES = [
  "UTC",
  "America/Vancouver",
  "Europe/Chisinau",
  "Europe/Berlin",
  "America/Havana",
  "Asia/Amman",
  "Asia/Kolkata",
  "Pacific/Chatham",
  "Australia/Lord_Howe",
  "Pacific/Apia",
];

describe("startOfLocalDay", () => {
  it.each([
    ["America/Vancouver", "2026-12-01", "2026-12-01T08:00:00.000Z"],
    ["America/Vancouver", "2026-11-01", "2026-11-01T07:00:00.000Z"],
    ["Europe/Chisinau", "2026-03-29", "2026-03-28T22:00:00.000Z"],
    // clocks fell back from 01:00 to 00:00: the day starts at the first midnight (+03), not the second
    ["Asia/Amman", "2021-10-29", "2021-10-28T21:00:00.000Z"],
    // Casey went from +11 to +8 at 03:00: its first midnight was at +11
    ["Antarctica/Casey", "2019-03-17", "2019-03-16T13:00:00.000Z"],
    // a midnight skipped by a spring-forward: the day starts at 01:00
    ["America/Santiago", "2024-09-08", "2024-09-08T04:00:00.000Z"],
  ])("%s %s starts at %s", (tz, day, start) => {
    expect(startOfLocalDay(day, tz).toISOString()).toBe(start);
  });
});

describe("localDays", () => {
  it("the day of the last start at or before an instant is the day Node dates it", () => {
    const instant = fc.integer({ min: Date.UTC(2019, 0, 1), max: Date.UTC(2028, 0, 1) });
    fc.assert(
      fc.property(
        fc.constantFrom(...ZONES),
        instant,
        fc.integer({ min: 1, max: 40 * 86_400_000 }),
        fc.array(fc.integer({ min: 0, max: 1_000_000 }), { minLength: 1, maxLength: 20 }),
        (tz, from, length, picks) => {
          const range = { from: new Date(from), to: new Date(from + length), tz };
          const days = localDays(range);
          expect(days[0]!.start).toEqual(range.from);
          for (let i = 1; i < days.length; i++) {
            expect(days[i]!.start.getTime()).toBeGreaterThanOrEqual(days[i - 1]!.start.getTime());
            expect(days[i]!.day > days[i - 1]!.day).toBe(true);
          }
          expect(days.at(-1)!.day).toBe(localDayOf(new Date(range.to.getTime() - 1), tz));
          for (const pick of picks) {
            const at = new Date(from + Math.floor((pick / 1_000_000) * (length - 1)));
            // width_bucket: the last start at or before the instant
            const bucket = days.findLast((d) => d.start <= at)!;
            expect(bucket.day, `${tz} ${at.toISOString()}`).toBe(localDayOf(at, tz));
          }
        },
      ),
      { numRuns: 2000, seed: 17 },
    );
  });
});
