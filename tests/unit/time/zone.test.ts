import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  canonicalTimeZone,
  formatDuration,
  formatInZoneIso,
  isDateOnly,
  isLocalDateTime,
  LAST_DAY,
  localDateTimeProblem,
  nextDay,
  formatInZone,
  zonedToUtc,
} from "@/lib/time/zone";

describe("time zones", () => {
  it.each([
    ["2026-11-20", "Europe/Moscow", "2026-11-19T21:00:00.000Z"],
    ["2026-11-20T13:05", "Europe/Moscow", "2026-11-20T10:05:00.000Z"],
    ["2026-11-20", "UTC", "2026-11-20T00:00:00.000Z"],
    ["2026-11-20", "America/New_York", "2026-11-20T05:00:00.000Z"],
    ["2026-07-20", "America/New_York", "2026-07-20T04:00:00.000Z"],
    // 02:30 does not exist on 2026-03-08 in New York (clocks jump 02:00 -> 03:00)
    ["2026-03-08T02:30", "America/New_York", "2026-03-08T07:30:00.000Z"],
    ["2026-11-20T00:00", "Asia/Kolkata", "2026-11-19T18:30:00.000Z"],
    // 01:30 is shown twice on 2026-11-01 in New York (02:00 EDT -> 01:00 EST): the first time
    ["2026-11-01T01:30", "America/New_York", "2026-11-01T05:30:00.000Z"],
    // Amman's clocks fell back from 01:00 to 00:00 on 2021-10-29: its first midnight (+03)
    ["2021-10-29", "Asia/Amman", "2021-10-28T21:00:00.000Z"],
    ["2021-10-29T00:30", "Asia/Amman", "2021-10-28T21:30:00.000Z"],
    // a midnight skipped by a spring-forward (00:00 -> 01:00): the instant of the jump
    ["2024-09-08", "America/Santiago", "2024-09-08T04:00:00.000Z"],
  ])("%s in %s is %s", (local, tz, utc) => {
    expect(zonedToUtc(local, tz).toISOString()).toBe(utc);
  });

  it("answers the first instant the clocks show a wall time", () => {
    const zones = [
      "America/New_York",
      "Asia/Amman",
      "Europe/Chisinau",
      "Australia/Lord_Howe",
      "America/Vancouver",
    ];
    fc.assert(
      fc.property(
        fc.constantFrom(...zones),
        fc.integer({ min: Date.UTC(2019, 0, 1), max: Date.UTC(2028, 0, 1) }),
        (tz, t) => {
          const at = new Date(Math.floor(t / 60_000) * 60_000);
          const wall = formatInZone(at, tz).replace(" ", "T");
          const first = zonedToUtc(wall, tz);
          expect(formatInZone(first, tz).replace(" ", "T")).toBe(wall);
          expect(first.getTime()).toBeLessThanOrEqual(at.getTime());
          // no earlier instant within the largest fall-back (2 h) shows it
          for (let back = 15; back <= 120; back += 15) {
            const earlier = new Date(first.getTime() - back * 60_000);
            expect(formatInZone(earlier, tz).replace(" ", "T")).not.toBe(wall);
          }
        },
      ),
      { numRuns: 3000, seed: 32 },
    );
  });

  it("formats an instant in a zone with its offset", () => {
    expect(formatInZoneIso(new Date("2026-11-20T10:05:09.123Z"), "Europe/Moscow")).toBe(
      "2026-11-20T13:05:09.123+03:00",
    );
    expect(formatInZoneIso(new Date("2026-11-20T10:05:09.123Z"), "America/New_York")).toBe(
      "2026-11-20T05:05:09.123-05:00",
    );
  });

  it("validates zones and local date-times", () => {
    expect(canonicalTimeZone("Europe/Moscow")).toBe("Europe/Moscow");
    expect(canonicalTimeZone("Mars/Olympus")).toBeNull();
    expect(canonicalTimeZone("")).toBeNull();
    expect(isLocalDateTime("2026-02-30")).toBe(false);
    expect(isLocalDateTime("2026-02-28T24:00")).toBe(false);
    expect(isLocalDateTime("2026-02-28T23:59:59.999")).toBe(true);
  });

  it.each([
    ["2026-11-20", null, null],
    ["2026-11-20T13:05", null, "format"],
    ["1000-01-01", null, null],
    ["9998-12-31", null, null],
    ["9999-12-31", "range", "range"],
    ["9999-01-01T00:00", "range", "format"],
    ["0999-12-31", "range", "range"],
    ["0000-01-01", "range", "range"],
    ["2026-02-30", "format", "format"],
    ["+10000-01-01", "format", "format"],
    ["2026-11-20T24:00", "format", "format"],
  ] as const)("%s: %s as a date-time, %s as a day", (value, asDateTime, asDay) => {
    expect(localDateTimeProblem(value)).toBe(asDateTime);
    expect(localDateTimeProblem(value, { dateOnly: true })).toBe(asDay);
    expect(isLocalDateTime(value)).toBe(asDateTime === null);
    expect(isDateOnly(value)).toBe(asDay === null);
  });

  it("the day after the last day a person may type still has a four-digit year, and converts", () => {
    expect(nextDay(LAST_DAY)).toBe("9999-01-01");
    expect(zonedToUtc(nextDay(LAST_DAY), "Pacific/Kiritimati").toISOString()).toBe(
      "9998-12-31T10:00:00.000Z",
    );
    expect(() => nextDay("9999-12-31")).toThrow(RangeError);
  });

  it.each([
    [45_000, "45 s"],
    [125_000, "2 min 05 s"],
    [7_500_000, "2 h 05 min"],
    [90_000_000, "1 d 1 h"],
  ])("%i ms reads %s", (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });
});
