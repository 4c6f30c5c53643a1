import "server-only";
import { Prisma } from "@/lib/generated/prisma/client";
import { IN_LEDGER_CURRENCY, LEDGER_CURRENCY_SQL, ledgerBalanceBefore } from "@/lib/ledger/balance";
import { postingGroup, postingKinds, type PostingKind } from "@/lib/ledger/rules";
import { inLedgerSnapshot, type LedgerReader } from "@/lib/ledger/snapshot";
import { Decimal } from "@/lib/money/decimal";
import { localDays, type LocalDay } from "@/lib/time/local-days";

/** A statement period: [from, to) in UTC instants, with the zone its days are counted in. */
export type StatementPeriod = { from: Date; to: Date; tz: string };

export type StatementTotals = {
  credits: string;
  debits: string;
  commissions: string;
  /** Net change of the available balance by holds placed, released and settled. */
  holds: string;
  outside: string;
  /** Sum of every movement of the period. */
  movements: string;
};

export type StatementDay = StatementTotals & { day: string; closing: string };

export type StatementSummary = {
  period: { from: string; to: string; tz: string };
  currency: string | null;
  opening: { available: string; holds: string };
  closing: { available: string; holds: string };
  totals: StatementTotals;
  /** opening + movements, computed apart from `closing`: equal to it to the last 0.0001. */
  check: { openingPlusMovements: string; closing: string; difference: string; ok: boolean };
  byKind: { kind: PostingKind | "outside"; amount: string; postings: number }[];
  counts: { typeOperation: string; status: string; paymentMethod: string | null; operations: number }[];
  days: StatementDay[];
  freshness: { lastCompleteReconciliationAt: string | null; covered: boolean };
};

const iso = (d: Date) => d.toISOString();
const QUARTER_MS = 900_000;

type DayKindRow = { i: number; kind: string; amount: string; hold: string; n: number };

/**
 * Sums per local day and kind over [from, to): whole quarter hours from LedgerBucket, edges from postings.
 * `i` is the index of the day in `days` (Node decides the days: lib/time/local-days.ts).
 */
async function dayKindSums(p: StatementPeriod, days: LocalDay[], db: LedgerReader): Promise<DayKindRow[]> {
  // A day starting inside a quarter hour (old local mean times) splits a bucket: read postings only.
  const aligned = days.slice(1).every((d) => d.start.getTime() % QUARTER_MS === 0);
  const c = new Date(Math.ceil(p.from.getTime() / QUARTER_MS) * QUARTER_MS);
  const f = aligned ? new Date(Math.floor(p.to.getTime() / QUARTER_MS) * QUARTER_MS) : c;
  const day = (col: Prisma.Sql) => Prisma.sql`width_bucket(${col}, (SELECT starts FROM days)) - 1`;
  const edges =
    c >= f
      ? [[p.from, p.to]]
      : [
          [p.from, c],
          [f, p.to],
        ];
  const edgeSql = edges.map(
    ([a, b]) => Prisma.sql`
      SELECT ${day(Prisma.sql`at`)} AS i, kind::text AS kind, amount, "holdDelta" AS hold, 1 AS n
      FROM "LedgerPosting" WHERE at >= ${iso(a!)}::timestamptz AND at < ${iso(b!)}::timestamptz`,
  );
  const bucketSql =
    c < f
      ? Prisma.sql`
      SELECT ${day(Prisma.sql`bucket`)} AS i, kind::text AS kind, amount, "holdDelta" AS hold, postings AS n
      FROM "LedgerBucket"
      WHERE bucket >= ${iso(c)}::timestamptz AND bucket < ${iso(f)}::timestamptz
      UNION ALL`
      : Prisma.empty;
  return db.$queryRaw<DayKindRow[]>`
    WITH days AS (SELECT ${days.map((d) => iso(d.start))}::timestamptz[] AS starts)
    SELECT i, kind, sum(amount)::text AS amount, sum(hold)::text AS hold, sum(n)::int AS n FROM (
      ${bucketSql}
      ${Prisma.join(edgeSql, " UNION ALL ")}
      UNION ALL
      SELECT ${day(Prisma.sql`"windowTo"`)}, 'outside', amount, 0, 1 FROM "OutsideMovement"
      WHERE "windowTo" >= ${iso(p.from)}::timestamptz AND "windowTo" < ${iso(p.to)}::timestamptz
        AND ${IN_LEDGER_CURRENCY}
    ) s GROUP BY i, kind HAVING sum(n) <> 0 ORDER BY i, kind`;
}

function emptyTotals(): Record<keyof StatementTotals, Decimal> {
  const z = new Decimal(0);
  return { credits: z, debits: z, commissions: z, holds: z, outside: z, movements: z };
}

function addRow(t: Record<keyof StatementTotals, Decimal>, kind: string, amount: string): void {
  const group = kind === "outside" ? "outside" : postingGroup[kind as PostingKind];
  t[group] = t[group].plus(amount);
  t.movements = t.movements.plus(amount);
}

const fixed = (t: Record<keyof StatementTotals, Decimal>): StatementTotals => ({
  credits: t.credits.toFixed(4),
  debits: t.debits.toFixed(4),
  commissions: t.commissions.toFixed(4),
  holds: t.holds.toFixed(4),
  outside: t.outside.toFixed(4),
  movements: t.movements.toFixed(4),
});

/**
 * The summary of a period: opening and closing balances, totals, per-day figures and counts, all read
 * from one snapshot of the ledger (`db`: a snapshot's client from inLedgerSnapshot, shared with the
 * reads of the lines shown with it; without one, a snapshot of its own).
 */
export async function statementSummary(p: StatementPeriod, db?: LedgerReader): Promise<StatementSummary> {
  if (!db) return inLedgerSnapshot((tx) => statementSummary(p, tx));
  const calendar = localDays(p);
  // Queued one after another on the transaction's one connection.
  const [opening, closing, rows, counts, runs, snapshots] = await Promise.all([
    ledgerBalanceBefore(p.from, db),
    ledgerBalanceBefore(p.to, db),
    dayKindSums(p, calendar, db),
    db.$queryRaw<StatementSummary["counts"]>`
      SELECT o."typeOperation"::text AS "typeOperation", o.status::text AS status, o."paymentMethod",
        count(*)::int AS operations
      FROM "Operation" o WHERE o.id IN (SELECT "operationId" FROM "LedgerPosting"
        WHERE at >= ${iso(p.from)}::timestamptz AND at < ${iso(p.to)}::timestamptz)
      GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
    db.$queryRaw<{ startedAt: Date; finishedAt: Date }[]>`
      SELECT "startedAt", "finishedAt" FROM "ReconciliationRun"
      WHERE status = 'completed' AND "finishedAt" IS NOT NULL ORDER BY "startedAt" DESC LIMIT 1`,
    // The ledger's currency: the one its movements outside operations are counted in.
    db.$queryRaw<{ currencyBalance: string | null }[]>`SELECT ${LEDGER_CURRENCY_SQL} AS "currencyBalance"`,
  ]);
  const lastRun = runs[0];
  const currency = snapshots[0];
  const totals = emptyTotals();
  const byKind = new Map<string, { amount: Decimal; postings: number }>();
  const days: StatementDay[] = [];
  let running = opening.available;
  const perDay = new Map<string, Record<keyof StatementTotals, Decimal>>();
  for (const row of rows) {
    const day = calendar[row.i]!.day;
    const t = perDay.get(day) ?? emptyTotals();
    perDay.set(day, t);
    addRow(t, row.kind, row.amount);
    addRow(totals, row.kind, row.amount);
    const k = byKind.get(row.kind) ?? { amount: new Decimal(0), postings: 0 };
    byKind.set(row.kind, { amount: k.amount.plus(row.amount), postings: k.postings + row.n });
  }
  for (const [day, t] of perDay) {
    running = running.plus(t.movements);
    days.push({ day, ...fixed(t), closing: running.toFixed(4) });
  }
  const openingPlusMovements = opening.available.plus(totals.movements);
  const difference = closing.available.minus(openingPlusMovements);
  return {
    period: { from: iso(p.from), to: iso(p.to), tz: p.tz },
    currency: currency?.currencyBalance ?? null,
    opening: { available: opening.available.toFixed(4), holds: opening.holds.toFixed(4) },
    closing: { available: closing.available.toFixed(4), holds: closing.holds.toFixed(4) },
    totals: fixed(totals),
    check: {
      openingPlusMovements: openingPlusMovements.toFixed(4),
      closing: closing.available.toFixed(4),
      difference: difference.toFixed(4),
      ok: difference.isZero(),
    },
    byKind: [...postingKinds, "outside" as const]
      .filter((k) => byKind.has(k))
      .map((k) => ({ kind: k, amount: byKind.get(k)!.amount.toFixed(4), postings: byKind.get(k)!.postings })),
    counts,
    days,
    freshness: {
      lastCompleteReconciliationAt: lastRun?.finishedAt?.toISOString() ?? null,
      covered: !!lastRun && lastRun.startedAt >= p.to,
    },
  };
}
