/**
 * The buckets the charts group instants into, decided by Node's zone data as the ledger's days are
 * (lib/time/local-days.ts): SQL only finds the index of the bucket an instant falls in with
 * `width_bucket(at, starts)`. Pure: no database.
 */
import { localDays, localHours, type LocalHour } from "@/lib/time/local-days";

export type ChartRange = { from: Date; to: Date; tz: string };

/** Consecutive buckets: each holds the instants from its start to the next one's, labelled "YYYY-MM-DD HH:MI". */
export type Bucket = LocalHour;

/** Hourly buckets for windows up to 7 days, daily ones (Node's local days) beyond. */
export function chartBuckets(range: ChartRange): Bucket[] {
  if (range.to.getTime() - range.from.getTime() <= 7 * 86_400_000) return localHours(range);
  return localDays(range).map((d) => ({ label: `${d.day} 00:00`, start: d.start }));
}
