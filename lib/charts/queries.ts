import "server-only";
import { getDb } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { FINAL_STATUSES_SQL } from "@/lib/operations/status";

/** A time window [from, to) and the zone whose calendar days the charts use. */
export type ChartRange = { from: Date; to: Date; tz: string };

const inRange = (column: Prisma.Sql, r: ChartRange) =>
  Prisma.sql`${column} >= ${r.from.toISOString()}::timestamptz AND ${column} < ${r.to.toISOString()}::timestamptz`;

const FINAL = Prisma.raw(FINAL_STATUSES_SQL);

const day = (r: ChartRange) =>
  Prisma.sql`to_char(date_trunc('day', o."dateAdded" AT TIME ZONE ${r.tz}), 'YYYY-MM-DD')`;

export type BalancePoint = {
  /** Start of the bucket, local time of the zone ("2026-11-20 13:00"). */
  at: string;
  amountInCurrencyBalance: string;
  currencyBalance: string;
  amountInCurrencyPayment: string;
  currencyPayment: string;
  exchangeRate: string;
};

/** The last balance snapshot of each hour (windows up to 7 days) or each day, exact decimals. */
export async function balanceHistory(r: ChartRange): Promise<BalancePoint[]> {
  const unit = r.to.getTime() - r.from.getTime() <= 7 * 86_400_000 ? "hour" : "day";
  return getDb().$queryRaw<BalancePoint[]>`
    SELECT DISTINCT ON (bucket) to_char(bucket, 'YYYY-MM-DD HH24:MI') AS at,
      trim_scale("amountInCurrencyBalance")::text AS "amountInCurrencyBalance", "currencyBalance",
      trim_scale("amountInCurrencyPayment")::text AS "amountInCurrencyPayment", "currencyPayment",
      trim_scale("exchangeRate")::text AS "exchangeRate"
    FROM (SELECT date_trunc(${unit}, "takenAt" AT TIME ZONE ${r.tz}) AS bucket, *
          FROM "BalanceSnapshot" WHERE ${inRange(Prisma.sql`"takenAt"`, r)}) s
    ORDER BY bucket, "takenAt" DESC, id DESC`;
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
  return getDb().$queryRaw<VolumeRow[]>`
    SELECT ${day(r)} AS day, o."typeOperation"::text AS "typeOperation", o.status::text AS status,
      o.currency, count(*)::int AS count, trim_scale(sum(o.amount))::text AS amount
    FROM "Operation" o WHERE ${inRange(Prisma.sql`o."dateAdded"`, r)}
    GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4`;
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
  return getDb().$queryRaw<SuccessRateRow[]>`
    SELECT day, "typeOperation", succeeded, finished,
      CASE WHEN finished > 0 THEN round(100.0 * succeeded / finished, 2)::text END AS rate
    FROM (
      SELECT ${day(r)} AS day, o."typeOperation"::text AS "typeOperation",
        (count(*) FILTER (WHERE o.status = 'success'))::int AS succeeded,
        (count(*) FILTER (WHERE o.status IN (${FINAL})))::int AS finished
      FROM "Operation" o WHERE ${inRange(Prisma.sql`o."dateAdded"`, r)}
      GROUP BY 1, 2) d
    ORDER BY 1, 2`;
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
  return getDb().$queryRaw<TimeToFinalRow[]>`
    SELECT ${day(r)} AS day, o."typeOperation"::text AS "typeOperation", count(*)::int AS count,
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
