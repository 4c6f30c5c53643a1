import "server-only";
import { getDb } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { inLedgerSnapshot, type LedgerReader } from "@/lib/ledger/snapshot";
import { Decimal } from "@/lib/money/decimal";
import { localDays } from "@/lib/time/local-days";

type Db = Pick<Prisma.TransactionClient, "$queryRaw">;

export type LedgerBalance = {
  /** The available balance: what GET /balance reports. */
  available: Decimal;
  /** Held by pay-outs in flight. */
  holds: Decimal;
  /** Of `available`, the movements outside operations. */
  outside: Decimal;
};

const iso = (d: Date) => d.toISOString();

/**
 * The ledger's currency, in SQL: the merchant's balance currency, as the newest balance comparison has it
 * (comparisons are only recorded in the ledger's currency: lib/ledger/proof.ts), or before the first one
 * the newest snapshot's; NULL before any balance was read. Postings carry no currency (they are all in the
 * balance currency: the operations' amountInCurrencyBalance); movements outside operations do, and only
 * those in this currency belong to the ledger: payment currency and balance currency are never added.
 */
export const LEDGER_CURRENCY_SQL = Prisma.sql`COALESCE(
  (SELECT currency FROM "BalanceComparison" ORDER BY "takenAt" DESC, id DESC LIMIT 1),
  (SELECT "currencyBalance" FROM "BalanceSnapshot" ORDER BY "takenAt" DESC, id DESC LIMIT 1))`;

/**
 * The condition on "OutsideMovement" rows that counts them in the ledger: in its currency. Before any
 * balance was read there is no currency to hold them to (and the proof has booked none then).
 */
export const IN_LEDGER_CURRENCY = Prisma.sql`"OutsideMovement".currency = COALESCE(${LEDGER_CURRENCY_SQL}, "OutsideMovement".currency)`;

/** The ledger's currency (LEDGER_CURRENCY_SQL), or null before any balance was read. */
export async function ledgerCurrency(db: Db = getDb()): Promise<string | null> {
  const rows = await db.$queryRaw<{ currency: string | null }[]>`SELECT ${LEDGER_CURRENCY_SQL} AS currency`;
  return rows[0]?.currency ?? null;
}

/**
 * The ledger's balance just before `before` (postings and movements outside operations strictly earlier):
 * whole quarter hours from LedgerBucket, the rest of the last quarter hour from the postings.
 */
export async function ledgerBalanceBefore(before: Date, db: Db = getDb()): Promise<LedgerBalance> {
  const rows = await db.$queryRaw<{ available: string; holds: string; outside: string }[]>`
    WITH edge AS (SELECT ledger_bucket_of(${iso(before)}::timestamptz) AS b),
    ops AS (
      SELECT COALESCE(sum(amount), 0) AS amount, COALESCE(sum("holdDelta"), 0) AS hold
      FROM "LedgerBucket", edge WHERE bucket < edge.b
      UNION ALL
      SELECT COALESCE(sum(amount), 0), COALESCE(sum("holdDelta"), 0)
      FROM "LedgerPosting", edge WHERE at >= edge.b AND at < ${iso(before)}::timestamptz
    ), outside AS (
      SELECT COALESCE(sum(amount), 0) AS amount FROM "OutsideMovement"
      WHERE "windowTo" < ${iso(before)}::timestamptz AND ${IN_LEDGER_CURRENCY}
    )
    SELECT ((SELECT sum(amount) FROM ops) + (SELECT amount FROM outside))::text AS available,
      (SELECT sum(hold) FROM ops)::text AS holds, (SELECT amount FROM outside)::text AS outside`;
  const row = rows[0]!;
  return {
    available: new Decimal(row.available),
    holds: new Decimal(row.holds),
    outside: new Decimal(row.outside),
  };
}

/** The balance including everything up to and at `at` (a balance read at that instant). */
export function ledgerBalanceAt(at: Date, db: Db = getDb()): Promise<LedgerBalance> {
  return ledgerBalanceBefore(new Date(at.getTime() + 1), db);
}

export type DailyClosing = { day: string; available: string; holds: string };

/**
 * Closing balance of each calendar day of the zone in [from, to), from the quarter-hour sums (zones
 * whose offset is a whole quarter hour, which is every zone in use today), plus movements outside
 * operations in the ledger's currency; every day is listed from the first one with a balance. The days
 * are Node's, as the statements' (lib/time/local-days.ts): SQL only finds the index of the day each sum
 * falls in. The opening balance and the per-day sums are read from one snapshot of the ledger (`db`, a
 * snapshot's client; without one, a snapshot of its own), so that a commit between the two reads (a
 * reconciliation page, a webhook) cannot yield closings the ledger never had.
 */
export async function dailyClosings(
  range: { from: Date; to: Date; tz: string },
  db?: LedgerReader,
): Promise<DailyClosing[]> {
  if (!db) return inLedgerSnapshot((tx) => dailyClosings(range, tx));
  const days = localDays(range);
  // Queued one after another on the snapshot's one connection.
  const [opening, rows] = await Promise.all([
    ledgerBalanceBefore(range.from, db),
    db.$queryRaw<{ i: number; amount: string; hold: string }[]>`
    WITH days AS (SELECT ${days.map((d) => iso(d.start))}::timestamptz[] AS starts)
    SELECT i, sum(amount)::text AS amount, sum(hold)::text AS hold FROM (
      SELECT width_bucket(bucket, (SELECT starts FROM days)) - 1 AS i, amount, "holdDelta" AS hold
      FROM "LedgerBucket"
      WHERE bucket >= ${iso(range.from)}::timestamptz AND bucket < ${iso(range.to)}::timestamptz
      UNION ALL
      SELECT width_bucket("windowTo", (SELECT starts FROM days)) - 1, amount, 0 FROM "OutsideMovement"
      WHERE "windowTo" >= ${iso(range.from)}::timestamptz AND "windowTo" < ${iso(range.to)}::timestamptz
        AND ${IN_LEDGER_CURRENCY}
    ) m GROUP BY i ORDER BY i`,
  ]);
  const byDay = new Map(rows.map((r) => [r.i, r]));
  let available = opening.available;
  let holds = opening.holds;
  let started = !available.isZero() || !holds.isZero();
  const out: DailyClosing[] = [];
  days.forEach(({ day }, i) => {
    const row = byDay.get(i);
    if (row) {
      available = available.plus(row.amount);
      holds = holds.plus(row.hold);
      started = true;
    }
    // Every day from the first one with a balance: a day without postings closes where the last one did.
    if (started) out.push({ day, available: available.toFixed(4), holds: holds.toFixed(4) });
  });
  return out;
}

/** When the first posting happened, or null with an empty ledger. */
export async function firstPostingAt(): Promise<Date | null> {
  const rows = await getDb().$queryRaw<{ at: Date | null }[]>`SELECT min(bucket) AS at FROM (
      SELECT bucket FROM "LedgerBucket" GROUP BY bucket, kind HAVING sum(postings) > 0) AS posted`;
  return rows[0]?.at ?? null;
}
