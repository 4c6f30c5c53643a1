/**
 * The buckets the charts group instants into, decided by Node's zone data as the ledger's days are
 * (lib/time/local-days.ts): SQL only finds the index of the bucket an instant falls in with
 * `width_bucket(at, starts)`. Pure: no database.
 */
import { localDays } from "@/lib/time/local-days";
import { formatInZone, zoneOffsetMs } from "@/lib/time/zone";

export type ChartRange = { from: Date; to: Date; tz: string };

/** Consecutive buckets: each holds the instants from its start to the next one's, labelled "YYYY-MM-DD HH:MI". */
export type Bucket = { label: string; start: Date };

const HOUR_MS = 3_600_000;
const QUARTER_MS = 900_000;

const hourOf = (at: Date, tz: string) => `${formatInZone(at, tz).slice(0, 13)}:00`;

/**
 * The local hours [from, to) touches, each starting at the first instant the zone's clocks show it (the
 * first starts at `from`). Where clocks fall back, an hour shown twice is one bucket from its first start.
 */
export function localHours(range: ChartRange): Bucket[] {
  const { from, to, tz } = range;
  const hours: Bucket[] = [{ label: hourOf(from, tz), start: from }];
  const add = (t: number) => {
    if (t <= from.getTime() || t >= to.getTime()) return;
    const at = new Date(t);
    const label = hourOf(at, tz);
    if (label !== hours[hours.length - 1]!.label) hours.push({ label, start: at });
  };
  // Offsets change only on quarter hours (lib/time/zone.ts): within one, the wall clock reaches a whole
  // hour at most once; a change of offset at its start may jump the clock to another hour.
  for (let q = Math.floor(from.getTime() / QUARTER_MS) * QUARTER_MS; q < to.getTime(); q += QUARTER_MS) {
    const offset = zoneOffsetMs(new Date(q), tz);
    add(q);
    const wholeHour = Math.ceil((q + offset) / HOUR_MS) * HOUR_MS - offset;
    if (wholeHour > q && wholeHour < q + QUARTER_MS) add(wholeHour);
  }
  return hours;
}

/** Hourly buckets for windows up to 7 days, daily ones (Node's local days) beyond. */
export function chartBuckets(range: ChartRange): Bucket[] {
  if (range.to.getTime() - range.from.getTime() <= 7 * 86_400_000) return localHours(range);
  return localDays(range).map((d) => ({ label: `${d.day} 00:00`, start: d.start }));
}
