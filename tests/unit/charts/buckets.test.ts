// The charts' hours and days are Node's, as the ledger's days are: every bucket is a run of instants
// whose local hour (or day) Node reads the same, whatever PostgreSQL's zone data says.
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { chartBuckets, type Bucket } from "@/lib/charts/buckets";
import { localHours } from "@/lib/time/local-days";
import { localDayOf, localDays, startOfLocalDay } from "@/lib/time/local-days";
import { formatInZone } from "@/lib/time/zone";
import { AWKWARD_ZONES } from "../../support/zones";

const HOUR = 3_600_000;
const DAY = 86_400_000;
// Lord Howe moves its clocks by half an hour.
const ZONES = [...AWKWARD_ZONES, "Australia/Lord_Howe"];
const AROUND = ["2021-10-29", "2025-11-02", "2026-03-29", "2026-10-04", "2026-11-01", "2027-03-14"];

const hourOf = (at: Date, tz: string) => `${formatInZone(at, tz).slice(0, 13)}:00`;
const bucketAt = (buckets: Bucket[], t: number) => buckets.findLast((b) => b.start.getTime() <= t)!;

describe("the charts' local hours", () => {
  test("Vancouver's fall-back hour is one bucket of two hours", () => {
    const from = new Date("2025-11-02T07:00:00Z");
    const hours = localHours({ from, to: new Date(from.getTime() + 4 * HOUR), tz: "America/Vancouver" });
    expect(hours.map((h) => [h.label, h.start.toISOString()])).toEqual([
      ["2025-11-02 00:00", "2025-11-02T07:00:00.000Z"],
      ["2025-11-02 01:00", "2025-11-02T08:00:00.000Z"],
      ["2025-11-02 02:00", "2025-11-02T10:00:00.000Z"],
    ]);
  });

  test("hours start where the zone's clocks show a whole hour (Chatham +13:45, Kolkata +5:30)", () => {
    const from = new Date("2026-12-01T00:00:00Z");
    const to = new Date(from.getTime() + 2 * HOUR);
    expect(localHours({ from, to, tz: "Pacific/Chatham" }).map((h) => h.start.toISOString())).toEqual([
      "2026-12-01T00:00:00.000Z",
      "2026-12-01T00:15:00.000Z",
      "2026-12-01T01:15:00.000Z",
    ]);
    expect(localHours({ from, to, tz: "Asia/Kolkata" }).map((h) => h.label)).toEqual([
      "2026-12-01 05:00",
      "2026-12-01 06:00",
      "2026-12-01 07:00",
    ]);
  });

  test("each bucket holds exactly the instants of its local hour, in every zone", () => {
    const range = fc
      .tuple(
        fc.constantFrom(...ZONES),
        fc.constantFrom(...AROUND),
        fc.integer({ min: -36 * 60, max: 36 * 60 }),
        fc.integer({ min: 1, max: 7 * 24 * 60 }),
      )
      .map(([tz, day, minutes, length]) => {
        const from = new Date(Date.parse(day) + minutes * 60_000 + (minutes % 7) * 1_000);
        return { from, to: new Date(from.getTime() + length * 60_000), tz };
      });
    fc.assert(
      fc.property(
        range,
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 20 }),
        (r, picks) => {
          const hours = localHours(r);
          expect(hours[0]!.start).toEqual(r.from);
          for (const [i, h] of hours.entries()) {
            expect(h.start < r.to).toBe(true);
            if (i === 0) continue;
            expect(h.start > hours[i - 1]!.start).toBe(true);
            // A bucket starts where the hour changes: the instant before it belongs to the previous one.
            expect(hourOf(new Date(h.start.getTime() - 1), r.tz)).toBe(hours[i - 1]!.label);
            expect(hourOf(h.start, r.tz)).toBe(h.label);
          }
          const span = r.to.getTime() - r.from.getTime();
          for (const p of picks) {
            const t = r.from.getTime() + Math.min(span - 1, Math.floor(p * span));
            expect(bucketAt(hours, t).label).toBe(hourOf(new Date(t), r.tz));
          }
        },
      ),
      { numRuns: 300, seed: 41 },
    );
  });
});

describe("the charts' buckets", () => {
  test("up to 7 days: hours; beyond: Node's local days", () => {
    const tz = "America/Vancouver";
    const from = startOfLocalDay("2026-11-28", tz);
    const week = { from, to: new Date(from.getTime() + 7 * DAY), tz };
    expect(chartBuckets(week)).toEqual(localHours(week));
    const longer = { from, to: new Date(from.getTime() + 7 * DAY + 1), tz };
    const days = chartBuckets(longer);
    expect(days).toEqual(localDays(longer).map((d) => ({ label: `${d.day} 00:00`, start: d.start })));
    // 23:30 on 1 December 2026 in Vancouver by Node's zone data (UTC−8)
    expect(bucketAt(days, Date.parse("2026-12-02T07:30:00Z")).label).toBe("2026-12-01 00:00");
    expect(localDayOf(new Date("2026-12-02T07:30:00Z"), tz)).toBe("2026-12-01");
  });
});
