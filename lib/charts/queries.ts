import "server-only";
import { chartBuckets, type ChartRange } from "@/lib/charts/buckets";
import { getDb } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { LEDGER_CURRENCY_SQL } from "@/lib/ledger/balance";
import { FINAL_STATUSES_SQL } from "@/lib/operations/status";
import { localDays } from "@/lib/time/local-days";

/** A time window [from, to) and the zone whose calendar days the charts use. */
export type { ChartRange };

const inRange = (column: Prisma.Sql, r: ChartRange) =>
  Prisma.sql`${column} >= ${r.from.toISOString()}::timestamptz AND ${column} < ${r.to.toISOString()}::timestamptz`;

const FINAL = Prisma.raw(FINAL_STATUSES_SQL);

/**
 * The 0-based index of the bucket `column` falls in, among consecutive buckets starting at `starts`.
 * Node decides the buckets (lib/charts/buckets.ts): PostgreSQL's zone data may disagree with its own.
 */
const bucketOf = (column: Prisma.Sql, starts: Date[]) =>
  Prisma.sql`width_bucket(${column}, ${starts.map((s) => s.toISOString())}::timestamptz[]) - 1`;

const dayStarts = (r: ChartRange) => {
  const days = localDays(r);
  return { days: days.map((d) => d.day), starts: days.map((d) => d.start) };
};

/** The rows with their bucket index replaced by the local day it stands for. */
const withDay = <T extends { i: number }>(rows: T[], days: string[]) =>
  rows.map(({ i, ...row }) => ({ day: days[i]!, ...row }));

export type BalancePoint = {
  /** Start of the bucket, local time of the zone ("2026-11-20 13:00"). */
  at: string;
  amountInCurrencyBalance: string;
  currencyBalance: string;
  amountInCurrencyPayment: string;
  currencyPayment: string;
  exchangeRate: string;
};

/**
 * The last balance snapshot of each local hour (windows up to 7 days) or each local day, exact decimals.
 * An hour shown twice in separate pieces (clocks falling back two hours) takes its last piece's snapshot.
 * Only snapshots in the ledger's currency: the chart draws them on the ledger's axis (a record in another
 * currency is stored, and raised as a difference, but never compared: lib/ledger/proof.ts).
 */
export async function balanceHistory(r: ChartRange): Promise<BalancePoint[]> {
  const buckets = chartBuckets(r);
  const starts = buckets.map((b) => b.start);
  const bucket = bucketOf(Prisma.sql`"takenAt"`, starts);
  const rows = await getDb().$queryRaw<(Omit<BalancePoint, "at"> & { i: number })[]>`
    SELECT DISTINCT ON (i) i,
      trim_scale("amountInCurrencyBalance")::text AS "amountInCurrencyBalance", "currencyBalance",
      trim_scale("amountInCurrencyPayment")::text AS "amountInCurrencyPayment", "currencyPayment",
      trim_scale("exchangeRate")::text AS "exchangeRate"
    FROM (SELECT ${bucket} AS i, *
          FROM "BalanceSnapshot" WHERE ${inRange(Prisma.sql`"takenAt"`, r)}
            AND "currencyBalance" = COALESCE(${LEDGER_CURRENCY_SQL}, "currencyBalance")) s
    ORDER BY i, "takenAt" DESC, id DESC`;
  const byLabel = new Map<string, BalancePoint>();
  for (const { i, ...row } of rows) {
    const at = buckets[i]!.label;
    byLabel.set(at, { at, ...row });
  }
  return [...byLabel.values()].sort((x, y) => (x.at < y.at ? -1 : x.at > y.at ? 1 : 0));
}

export type VolumeRow = {
  day: string;
  typeOperation: "payIn" | "payOut";
  status: string;
  currency: string;
  count: number;
  /** Sum of amounts in the payment currency. */
  amount: string;
};

/** Daily count and sum of amounts by type, status and payment currency. */
export async function dailyVolume(r: ChartRange): Promise<VolumeRow[]> {
  const { days, starts } = dayStarts(r);
  const rows = await getDb().$queryRaw<(Omit<VolumeRow, "day"> & { i: number })[]>`
    SELECT ${bucketOf(Prisma.sql`o."dateAdded"`, starts)} AS i, o."typeOperation"::text AS "typeOperation", o.status::text AS status,
      o.currency, count(*)::int AS count, trim_scale(sum(o.amount))::text AS amount
    FROM "Operation" o WHERE ${inRange(Prisma.sql`o."dateAdded"`, r)}
    GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4`;
  return withDay(rows, days);
}

export type SuccessRateRow = {
  day: string;
  typeOperation: "payIn" | "payOut";
  succeeded: number;
  finished: number;
  /** Percentage of final operations that succeeded, two decimals; null without final operations. */
  rate: string | null;
};

/** Daily share of successful operations among those that reached a final status. */
export async function successRate(r: ChartRange): Promise<SuccessRateRow[]> {
  const { days, starts } = dayStarts(r);
  const rows = await getDb().$queryRaw<(Omit<SuccessRateRow, "day"> & { i: number })[]>`
    SELECT i, "typeOperation", succeeded, finished,
      CASE WHEN finished > 0 THEN round(100.0 * succeeded / finished, 2)::text END AS rate
    FROM (
      SELECT ${bucketOf(Prisma.sql`o."dateAdded"`, starts)} AS i, o."typeOperation"::text AS "typeOperation",
        (count(*) FILTER (WHERE o.status = 'success'))::int AS succeeded,
        (count(*) FILTER (WHERE o.status IN (${FINAL})))::int AS finished
      FROM "Operation" o WHERE ${inRange(Prisma.sql`o."dateAdded"`, r)}
      GROUP BY 1, 2) d
    ORDER BY 1, 2`;
  return withDay(rows, days);
}

export type TimeToFinalRow = {
  day: string;
  typeOperation: "payIn" | "payOut";
  count: number;
  /** Median seconds from dateAdded to the final status, as decimal text. */
  medianSeconds: string;
};

/**
 * Daily median time from creation to the final status: the moment of the first recorded change to
 * success or failed (the platform's dateUpdated when known), else the operation's dateUpdated.
 */
export async function medianTimeToFinal(r: ChartRange): Promise<TimeToFinalRow[]> {
  const { days, starts } = dayStarts(r);
  const rows = await getDb().$queryRaw<(Omit<TimeToFinalRow, "day"> & { i: number })[]>`
    SELECT ${bucketOf(Prisma.sql`o."dateAdded"`, starts)} AS i, o."typeOperation"::text AS "typeOperation", count(*)::int AS count,
      round(percentile_cont(0.5) WITHIN GROUP (
        ORDER BY extract(epoch FROM (f.at - o."dateAdded")))::numeric, 3)::text AS "medianSeconds"
    FROM "Operation" o
    CROSS JOIN LATERAL (
      SELECT COALESCE(
        (SELECT min(COALESCE(h."platformDateUpdated", h."recordedAt")) FROM "OperationStatusChange" h
          WHERE h."operationId" = o.id AND h."toStatus" IN (${FINAL})),
        o."dateUpdated") AS at) f
    WHERE o.status IN (${FINAL}) AND f.at IS NOT NULL
      AND ${inRange(Prisma.sql`o."dateAdded"`, r)}
    GROUP BY 1, 2 ORDER BY 1, 2`;
  return withDay(rows, days);
}

export type RateSource = {
  operationId: string;
  exchangeRate: string;
  dateAdded: Date;
  /** When it became success: the moment its ledger postings carry (lib/ledger). */
  completedAt: Date;
} | null;

/**
 * The operation the platform takes the balance rate from: the merchant's last successfully *completed*
 * operation (spec: GET /balance, rule 1), i.e. the latest moment of becoming success, not the newest
 * dateAdded (an operation added earlier may complete later).
 *
 * That moment is the one the ledger posts a success at (LedgerPosting.at: the first recorded change to
 * success, the platform's dateUpdated when known, else the operation's dateUpdated), and the ledger's
 * (at, operationId, kind) index answers "latest" by a backward scan that stops at the first success
 * posting; Operation has no index on dateUpdated, so ordering the mirror by it would read every success.
 * A success with no posting (its balance amounts all zero or unknown) is not considered.
 */
export async function lastSuccessfulOperationRate(): Promise<RateSource> {
  const [row] = await getDb().$queryRaw<
    { id: string; exchangeRate: string | null; dateAdded: Date; completedAt: Date }[]
  >`
    SELECT o.id, o."exchangeRate"::text AS "exchangeRate", o."dateAdded", p.at AS "completedAt"
    FROM "LedgerPosting" p JOIN "Operation" o ON o.id = p."operationId"
    WHERE p.kind IN ('payInCredit', 'payInCommission', 'payOutSettle', 'payOutDebit', 'payOutCommission')
      AND o.status = 'success'
    ORDER BY p.at DESC, p."operationId" DESC
    LIMIT 1`;
  if (!row?.exchangeRate) return null;
  return {
    operationId: row.id,
    exchangeRate: new Prisma.Decimal(row.exchangeRate).toFixed(),
    dateAdded: row.dateAdded,
    completedAt: row.completedAt,
  };
}
