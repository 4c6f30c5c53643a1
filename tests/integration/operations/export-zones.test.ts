// The export writes local times with Node's zone data, as every time on screen is written: PostgreSQL's
// own keeps America/Vancouver on UTC−7 from 2026-11-01 while Node's keeps UTC−8, and Europe/Chisinau's
// switch hour differs. The lines are written by PostgreSQL from offsets Node computes (offsetSegments).
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { csvStream } from "@/lib/csv/stream";
import { exportOperationsCsv } from "@/lib/operations/export/operations-csv";
import { parseOperationFilter } from "@/lib/operations/list/filter";
import { offsetSegments } from "@/lib/time/local-days";
import { formatInZoneIso, zoneOffsetMs } from "@/lib/time/zone";
import { isolateDatabase } from "../../support/database";
import { insertOperations } from "../../support/mirror";
import { AWKWARD_ZONES } from "../../support/zones";

const ZONES = [...AWKWARD_ZONES, "Europe/Moscow", "America/St_Johns", "Australia/Lord_Howe"];
const HOUR = 3_600_000;
// Within two hours of a switch of one of the zones, and anywhere from 1995 to 2045.
const SWITCHES = [
  "2021-10-28T22:00:00Z", "2026-03-29T01:00:00Z", "2026-10-25T01:00:00Z", "2026-11-01T09:00:00Z",
  "2027-03-14T10:00:00Z", "2027-03-28T00:00:00Z", "2027-10-31T01:00:00Z", "2027-11-07T09:00:00Z",
].map(Date.parse); // prettier-ignore
const instant = fc.oneof(
  fc
    .tuple(fc.constantFrom(...SWITCHES), fc.integer({ min: -2 * HOUR, max: 2 * HOUR }))
    .map(([at, d]) => at + d),
  fc.integer({ min: Date.UTC(1995, 0, 1), max: Date.UTC(2045, 0, 1) }),
);
// One row per dateAdded (the test finds a row's line by its UTC date); updated up to 360 days later.
const rows = [
  ...new Map(
    fc
      .sample(fc.tuple(instant, fc.option(fc.integer({ min: 0, max: 360 * 24 * HOUR }))), {
        numRuns: 1500,
        seed: 32,
      })
      .map(([added, later]) => [
        added,
        { dateAdded: new Date(added), dateUpdated: later === null ? null : new Date(added + later) },
      ]),
  ).values(),
];

let restore: () => Promise<void>;
beforeAll(async () => {
  restore = await isolateDatabase();
  await insertOperations([
    // 23:30 on 1 December 2026 in Vancouver by Node (−8); 00:30 on 2 December by PostgreSQL's zone data
    { dateAdded: new Date("2026-12-02T07:30:00.000Z"), dateUpdated: new Date("2026-12-02T07:31:00.000Z") },
    ...rows,
  ]);
}, 120_000);
afterAll(async () => restore());

async function exportedDates(tz: string): Promise<Map<string, string[]>> {
  const r = parseOperationFilter(new URLSearchParams({ tz }));
  if (!r.ok) throw new Error(JSON.stringify(r.fieldErrors));
  const text = await new Response(csvStream(exportOperationsCsv(r.filter, null))).text();
  const byUtc = new Map<string, string[]>();
  for (const line of text.trim().split("\r\n").slice(1)) {
    const [, , , , added, addedUtc, updated, updatedUtc] = line.split(",");
    byUtc.set(addedUtc!, [added!, updated!, updatedUtc!]);
  }
  return byUtc;
}

describe("the operations CSV writes local times with Node's zone data", () => {
  it("writes 07:30 UTC on 2 December 2026 as 23:30 on 1 December in Vancouver", async () => {
    const dates = await exportedDates("America/Vancouver");
    expect(dates.get("2026-12-02T07:30:00.000Z")).toEqual([
      "2026-12-01T23:30:00.000-08:00",
      "2026-12-01T23:31:00.000-08:00",
      "2026-12-02T07:31:00.000Z",
    ]);
  });

  it.each(ZONES)("writes every date as formatInZoneIso does, in %s", async (tz) => {
    const dates = await exportedDates(tz);
    expect(dates.size).toBe(rows.length + 1);
    for (const row of rows) {
      expect(dates.get(row.dateAdded.toISOString())).toEqual([
        formatInZoneIso(row.dateAdded, tz),
        row.dateUpdated ? formatInZoneIso(row.dateUpdated, tz) : "",
        row.dateUpdated?.toISOString() ?? "",
      ]);
    }
  });
});

describe("offsetSegments", () => {
  it("holds Node's offset at every instant of the range", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ZONES),
        instant,
        fc.integer({ min: 1, max: 3 * 365 * 24 }),
        (tz, from, hours) => {
          const range = { from: new Date(from), to: new Date(from + hours * HOUR), tz };
          const segments = offsetSegments(range);
          expect(segments[0]!.start).toEqual(range.from);
          for (let i = 1; i < segments.length; i++) {
            expect(segments[i]!.start.getTime()).toBeGreaterThan(segments[i - 1]!.start.getTime());
            expect(segments[i]!.offsetSeconds).not.toBe(segments[i - 1]!.offsetSeconds);
          }
          for (let k = 0; k < 50; k++) {
            const at = from + Math.floor(((k + 0.5) / 50) * hours * HOUR);
            const segment = segments.findLast((s) => s.start.getTime() <= at)!;
            expect(segment.offsetSeconds * 1000).toBe(zoneOffsetMs(new Date(at), tz));
          }
        },
      ),
      { numRuns: 300, seed: 32 },
    );
  });

  it("starts each segment at the quarter hour the offset changes", () => {
    for (const tz of ZONES) {
      for (const s of offsetSegments({ from: new Date("2020-01-01"), to: new Date("2030-01-01"), tz }).slice(
        1,
      )) {
        expect(zoneOffsetMs(s.start, tz) / 1000).toBe(s.offsetSeconds);
        expect(zoneOffsetMs(new Date(s.start.getTime() - 1), tz) / 1000).not.toBe(s.offsetSeconds);
      }
    }
  });
});
