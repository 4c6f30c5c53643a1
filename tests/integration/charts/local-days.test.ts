// The balance page's charts count Node's days and hours, as the ledger closings drawn beside them do
// (tests/integration/ledger/statement-days.test.ts), not PostgreSQL's zone data: the two disagree on
// America/Vancouver from 2026-11-01 (PostgreSQL's UTC−7, Node's UTC−8) and on Europe/Chisinau's switch hour.
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { balanceHistory, dailyVolume, medianTimeToFinal, successRate } from "@/lib/charts/queries";
import { getDb } from "@/lib/db";
import type { OperationStatus } from "@/lib/generated/prisma/enums";
import { Decimal } from "@/lib/money/decimal";
import { isFinal } from "@/lib/operations/status";
import { localDayOf, startOfLocalDay } from "@/lib/time/local-days";
import { formatInZone } from "@/lib/time/zone";
import { isolateDatabase } from "../../support/database";
import { insertOperations, type MirrorRow } from "../../support/mirror";
import { AWKWARD_ZONES } from "../../support/zones";

// Around switches and in Vancouver's winter; 1 and 2 December 2026 in Vancouver hold only the rows of
// the first tests.
const DAYS = [
  "2021-10-29", "2021-10-30", "2026-03-29", "2026-10-25", "2026-11-01", "2026-11-02", "2026-11-15",
  "2027-01-15", "2027-03-14", "2027-03-28",
]; // prettier-ignore
const MINUTE = 60_000;
const DAY = 86_400_000;
const STATUSES: OperationStatus[] = ["success", "failed", "in_progress", "created"];
const VANCOUVER = "America/Vancouver";
// 23:30 on 1 December 2026 in Vancouver by Node (UTC−8); 00:30 on 2 December by PostgreSQL's zone data
const LATE = new Date("2026-12-02T07:30:00Z");

type Op = Required<Pick<MirrorRow, "dateAdded" | "typeOperation" | "status" | "amount" | "currency">> & {
  dateUpdated: Date;
};
type Snapshot = { takenAt: Date; amountInCurrencyBalance: string };

const ops: Op[] = [];
const snapshots: Snapshot[] = [];

let restore: () => Promise<void>;
beforeAll(async () => {
  restore = await isolateDatabase();
  ops.push(
    { ...op(LATE, "success", "100.0001"), dateUpdated: new Date(LATE.getTime() + 90_000) },
    { ...op(new Date("2026-12-01T20:00:00Z"), "failed", "5"), dateUpdated: new Date("2026-12-01T20:00:30Z") },
  );
  snapshots.push(
    { takenAt: LATE, amountInCurrencyBalance: "7.0001" },
    { takenAt: new Date("2026-12-02T08:10:00Z"), amountInCurrencyBalance: "8" },
  );
  // Rows within 90 minutes of every zone's midnights (as Node counts them) on those days.
  const anchors = AWKWARD_ZONES.flatMap((tz) => DAYS.map((day) => startOfLocalDay(day, tz).getTime()));
  const picks = fc.sample(fc.integer({ min: 0, max: 1_000_000 }), { numRuns: 1200, seed: 37 });
  picks.forEach((r, i) => {
    const at = new Date(anchors[i % anchors.length]! + ((r % 181) - 90) * MINUTE + (r % 997) * 7 + i);
    if (i % 3 === 2) {
      snapshots.push({
        takenAt: at,
        amountInCurrencyBalance: `${r % 9000}.${String(r % 9973).padStart(4, "0")}`,
      });
      return;
    }
    ops.push({
      ...op(at, STATUSES[r % STATUSES.length]!, `${r % 5000}.${String(r % 97).padStart(2, "0")}`),
      typeOperation: i % 5 === 4 ? "payOut" : "payIn",
      currency: i % 7 === 6 ? "KZT" : "RUB",
      dateUpdated: new Date(at.getTime() + (r % 600) * 1000),
    });
  });
  await insertOperations(ops);
  await getDb().balanceSnapshot.createMany({
    data: snapshots.map((s) => ({
      ...s,
      currencyBalance: "USDT",
      amountInCurrencyPayment: "1",
      currencyPayment: "RUB",
      exchangeRate: "95.5",
    })),
  });
}, 120_000);
afterAll(async () => restore());

function op(dateAdded: Date, status: OperationStatus, amount: string): Op {
  return { dateAdded, dateUpdated: dateAdded, typeOperation: "payIn", status, amount, currency: "RUB" };
}

type Range = { from: Date; to: Date; tz: string };
const inRange = (at: Date, r: Range) => at >= r.from && at < r.to;

function groupBy<T>(rows: T[], key: (row: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const row of rows) out.set(key(row), [...(out.get(key(row)) ?? []), row]);
  return out;
}

const sorted = <T>(m: Map<string, T>) => [...m.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

/** What each chart shows, computed here from the rows and Node's local day of each. */
function expectedDays(r: Range) {
  const byDay = (o: Op) => localDayOf(o.dateAdded, r.tz);
  const inside = ops.filter((o) => inRange(o.dateAdded, r));
  const volume = sorted(
    groupBy(inside, (o) => [byDay(o), o.typeOperation, o.status, o.currency].join(" ")),
  ).map(([, g]) => ({
    day: byDay(g[0]!),
    typeOperation: g[0]!.typeOperation,
    status: g[0]!.status,
    currency: g[0]!.currency,
    count: g.length,
    amount: g.reduce((s, o) => s.plus(o.amount), new Decimal(0)).toFixed(),
  }));
  const perType = sorted(groupBy(inside, (o) => `${byDay(o)} ${o.typeOperation}`));
  const rate = perType.map(([, g]) => {
    const succeeded = g.filter((o) => o.status === "success").length;
    const finished = g.filter((o) => isFinal(o.status)).length;
    const share = finished > 0 ? new Decimal(100).times(succeeded).div(finished).toFixed(2) : null;
    return { day: byDay(g[0]!), typeOperation: g[0]!.typeOperation, succeeded, finished, rate: share };
  });
  const final = sorted(
    groupBy(
      inside.filter((o) => isFinal(o.status)),
      (o) => `${byDay(o)} ${o.typeOperation}`,
    ),
  );
  const median = final.map(([, g]) => {
    const s = g.map((o) => (o.dateUpdated.getTime() - o.dateAdded.getTime()) / 1000).sort((a, b) => a - b);
    const mid = new Decimal(s[Math.floor((s.length - 1) / 2)]!)
      .plus(s[Math.ceil((s.length - 1) / 2)]!)
      .div(2);
    return {
      day: byDay(g[0]!),
      typeOperation: g[0]!.typeOperation,
      count: g.length,
      medianSeconds: mid.toFixed(3),
    };
  });
  return { volume, rate, median };
}

/** The last snapshot of each local hour (up to 7 days) or day, by Node's clock. */
function expectedHistory(r: Range) {
  const hourly = r.to.getTime() - r.from.getTime() <= 7 * DAY;
  const label = (at: Date) =>
    hourly ? `${formatInZone(at, r.tz).slice(0, 13)}:00` : `${localDayOf(at, r.tz)} 00:00`;
  const groups = groupBy(
    snapshots.filter((s) => inRange(s.takenAt, r)),
    (s) => label(s.takenAt),
  );
  return sorted(groups).map(([at, g]) => {
    const last = g.reduce((a, b) => (b.takenAt >= a.takenAt ? b : a));
    return [at, new Decimal(last.amountInCurrencyBalance).toFixed()];
  });
}

describe("the balance page's charts in Node's days", () => {
  const december = {
    from: startOfLocalDay("2026-12-01", VANCOUVER),
    to: startOfLocalDay("2026-12-03", VANCOUVER),
  };
  const range = { ...december, tz: VANCOUVER };

  it("count a pay-in at 23:30 on 1 December 2026 in Vancouver in 1 December", async () => {
    const volume = await dailyVolume(range);
    expect(volume.filter((v) => v.status === "success" && v.amount === "100.0001").map((v) => v.day)).toEqual(
      ["2026-12-01"],
    );
    const rate = await successRate(range);
    expect(rate.find((d) => d.day === "2026-12-01" && d.typeOperation === "payIn")).toMatchObject({
      succeeded: 1,
      finished: 2,
      rate: "50.00",
    });
    expect(await medianTimeToFinal(range)).toContainEqual({
      day: "2026-12-01",
      typeOperation: "payIn",
      count: 2,
      medianSeconds: "60.000",
    });
  });

  it("keep its balance snapshot in the hour 23:00 of 1 December, and in that day", async () => {
    const hours = (await balanceHistory(range)).map((p) => [p.at, p.amountInCurrencyBalance]);
    expect(hours).toContainEqual(["2026-12-01 23:00", "7.0001"]);
    expect(hours).toContainEqual(["2026-12-02 00:00", "8"]);
    const long = { ...range, from: new Date(range.from.getTime() - 7 * DAY) };
    const days = (await balanceHistory(long)).map((p) => [p.at, p.amountInCurrencyBalance]);
    expect(days).toContainEqual(["2026-12-01 00:00", "7.0001"]);
    expect(days).toContainEqual(["2026-12-02 00:00", "8"]);
  });

  it("put every row in the day (and hour) Node reads it in, in every zone", async () => {
    const anchor = fc
      .tuple(fc.constantFrom(...DAYS), fc.integer({ min: -2, max: 1 }))
      .map(([d, k]) => Date.parse(d) + k * DAY);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...AWKWARD_ZONES),
        anchor,
        fc.integer({ min: -720, max: 720 }),
        fc.integer({ min: 60, max: 12 * 24 * 60 }),
        async (tz, start, minutes, length) => {
          const from = new Date(start + minutes * MINUTE);
          const r = { from, to: new Date(from.getTime() + length * MINUTE), tz };
          const expected = expectedDays(r);
          expect(await dailyVolume(r), "volume").toEqual(expected.volume);
          expect(await successRate(r), "success rate").toEqual(expected.rate);
          expect(await medianTimeToFinal(r), "time to final").toEqual(expected.median);
          const history = (await balanceHistory(r)).map((p) => [p.at, p.amountInCurrencyBalance]);
          expect(history, "balance history").toEqual(expectedHistory(r));
        },
      ),
      { numRuns: 100, seed: 43 },
    );
  }, 240_000);
});
