// A statement's days are the days its lines are dated: Node's Intl, which every time on screen and in
// the exports is read with, not PostgreSQL's own zone data. They disagree: PostgreSQL's keeps
// America/Vancouver on UTC−7 from 2026-11-01 while Node's keeps UTC−8, and Europe/Chisinau's switch hour
// differs. The balance page's daily closings count the same days.
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { dailyClosings } from "@/lib/ledger/balance";
import { allPostings, type StatementPosting } from "@/lib/ledger/postings";
import { inLedgerSnapshot } from "@/lib/ledger/snapshot";
import { statementSummary, type StatementPeriod } from "@/lib/ledger/statement";
import { Decimal } from "@/lib/money/decimal";
import { periodQuerySchema, resolvePeriod } from "@/lib/statements/periods";
import { localDayOf, startOfLocalDay } from "@/lib/time/local-days";
import { isolateDatabase } from "../../support/database";
import { insertOperations, type MirrorRow } from "../../support/mirror";
import { AWKWARD_ZONES } from "../../support/zones";

const ZONES = AWKWARD_ZONES;
// Around switches (Amman's 2021 fall-back onto midnight, Chisinau's and Vancouver's 2026-2027 ones) and
// in Vancouver's winter, where the two zone data sets are an hour apart at every midnight.
const DAYS = [
  "2021-10-28", "2021-10-29", "2021-10-30", "2026-03-28", "2026-03-29", "2026-03-30", "2026-10-24",
  "2026-10-25", "2026-10-26", "2026-10-31", "2026-11-01", "2026-11-02", "2026-12-01", "2026-12-02",
  "2027-01-15", "2027-03-13", "2027-03-14", "2027-03-15", "2027-03-27", "2027-03-28",
]; // prettier-ignore
const MINUTE = 60_000;

let restore: () => Promise<void>;
beforeAll(async () => {
  restore = await isolateDatabase();
  await insertOperations([
    // 23:30 on 1 December 2026 in Vancouver by Node (−8); 00:30 on 2 December by PostgreSQL's zone data
    payIn(new Date("2026-12-02T07:30:00Z"), "100", "1"),
    payIn(new Date("2026-12-01T12:00:00Z"), "10", "0"),
  ]);
  // Operations within 90 minutes of every zone's midnights (as Node counts them) on those days.
  const picks = fc.sample(fc.integer({ min: 0, max: 1_000_000 }), { numRuns: 1500, seed: 29 });
  const anchors = ZONES.flatMap((tz) => DAYS.map((day) => startOfLocalDay(day, tz).getTime()));
  const rows = picks.map((r, i) => {
    const at = new Date(anchors[i % anchors.length]! + ((r % 181) - 90) * MINUTE + (r % 997));
    return i % 4 === 3
      ? { ...payIn(at, `${r % 500}.${r % 7}`, "0.5"), typeOperation: "payOut" as const }
      : payIn(at, `${r % 5000}.${String(r % 9973).padStart(4, "0")}`, `${r % 13}.${r % 97}`);
  });
  await insertOperations(rows);
  await getDb().outsideMovement.createMany({
    data: anchors
      .filter((_, i) => i % 3 === 0)
      .map((a, i) => ({
        windowTo: new Date(a + (i % 2 ? -20 : 20) * MINUTE),
        amount: `${i}.25`,
        currency: "USDT",
      })),
  });
}, 120_000);
afterAll(async () => restore());

function payIn(at: Date, amount: string, commission: string): MirrorRow {
  return {
    typeOperation: "payIn",
    status: "success",
    dateAdded: at,
    dateUpdated: at,
    amountInCurrencyBalance: amount,
    amountComissionInCurrencyBalance: commission,
  };
}

function customPeriod(tz: string, from: string, to: string): StatementPeriod {
  const r = resolvePeriod(periodQuerySchema.parse({ period: "custom", tz, from, to }));
  if (!r.ok) throw new Error(r.problem);
  return r.period;
}

async function linesOf(period: StatementPeriod): Promise<StatementPosting[]> {
  return inLedgerSnapshot(async (tx) => {
    const out: StatementPosting[] = [];
    for await (const chunk of allPostings(period, tx, 50)) out.push(...chunk);
    return out;
  });
}

/** The lines' amounts summed by the day Node dates them. */
function byNodeDay(lines: StatementPosting[], tz: string): Map<string, Decimal> {
  const sums = new Map<string, Decimal>();
  for (const l of lines) {
    const day = localDayOf(new Date(l.at), tz);
    sums.set(day, (sums.get(day) ?? new Decimal(0)).plus(l.amount));
  }
  return sums;
}

describe("a statement's days", () => {
  it("the Vancouver statement of 1 December 2026 has only that day, its lines' sum", async () => {
    const period = customPeriod("America/Vancouver", "2026-12-01", "2026-12-01");
    const [summary, lines] = [await statementSummary(period), await linesOf(period)];
    expect(lines.map((l) => localDayOf(new Date(l.at), period.tz))).toContain("2026-12-01");
    expect(summary.days.map((d) => [d.day, d.movements])).toEqual([
      ["2026-12-01", byNodeDay(lines, period.tz).get("2026-12-01")!.toFixed(4)],
    ]);
  });

  it("the balance page closes 1 December 2026 in Vancouver after its 23:30 pay-in", async () => {
    const period = customPeriod("America/Vancouver", "2026-12-01", "2026-12-02");
    const closings = await dailyClosings(period);
    const december = await statementSummary(customPeriod("America/Vancouver", "2026-12-01", "2026-12-01"));
    expect(closings.map((c) => c.day)).toEqual(["2026-12-01", "2026-12-02"]);
    expect(closings[0]!.available).toBe(december.closing.available);
  });

  it("lie inside the period and sum the lines Node dates on them, in every zone (closings too)", async () => {
    const day = fc
      .tuple(fc.constantFrom(...DAYS), fc.integer({ min: -2, max: 1 }))
      .map(([d, k]) => new Date(Date.parse(d) + k * 86_400_000).toISOString().slice(0, 10));
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...ZONES),
        day,
        fc.integer({ min: 0, max: 6 }),
        async (tz, from, length) => {
          const to = new Date(Date.parse(from) + length * 86_400_000).toISOString().slice(0, 10);
          const period = customPeriod(tz, from, to);
          const [summary, lines, closings] = [
            await statementSummary(period),
            await linesOf(period),
            await dailyClosings(period),
          ];
          const expected = byNodeDay(lines, tz);
          const problems: string[] = [];
          for (const d of summary.days) {
            if (d.day < from || d.day > to) problems.push(`day ${d.day} outside ${from}..${to}`);
            const sum = expected.get(d.day) ?? new Decimal(0);
            if (!sum.equals(d.movements))
              problems.push(`${d.day}: days ${d.movements}, lines ${sum.toFixed(4)}`);
            expected.delete(d.day);
            const closing = closings.find((c) => c.day === d.day);
            if (closing?.available !== d.closing)
              problems.push(`${d.day}: closing ${closing?.available} vs ${d.closing}`);
          }
          for (const [d, sum] of expected) if (!sum.isZero()) problems.push(`lines of ${d} in no day`);
          for (const c of closings) if (c.day < from || c.day > to) problems.push(`closing ${c.day} outside`);
          expect(problems, `${tz} ${from}..${to}`).toEqual([]);
        },
      ),
      { numRuns: 120, seed: 31 },
    );
  }, 240_000);
});
