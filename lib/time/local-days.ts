/**
 * The calendar days of a zone as Node's Intl counts them: the clock every time on screen and in the
 * exports is read with. PostgreSQL carries zone data of its own, which may differ (from 2026-11-01 it
 * keeps America/Vancouver on UTC−7 while Node's keeps UTC−8): SQL never decides which day an instant
 * belongs to, it buckets instants by the starts computed here (`width_bucket(at, starts)` is the
 * 1-based index of the day). Pure: shared by server and client code.
 */
import { formatInZone, formatOffset, nextDay, zoneOffsetMs, zonedToUtc } from "@/lib/time/zone";

export type LocalDay = { day: string; start: Date };

/** A local hour, labelled "YYYY-MM-DD HH:00", from the first instant the zone's clocks show it. */
export type LocalHour = { label: string; start: Date };

/** The "YYYY-MM-DD" day of the zone at an instant. */
export const localDayOf = (at: Date, timeZone: string): string => formatInZone(at, timeZone).slice(0, 10);

/** The first instant the zone's clocks show `day`: its first midnight, or the end of a jump over it. */
export const startOfLocalDay = (day: string, timeZone: string): Date => zonedToUtc(day, timeZone);

/**
 * The days [from, to) touches, in order, each with the instant it starts within the range: the first
 * starts at `from`, the others at their first instant.
 */
export function localDays(range: { from: Date; to: Date; tz: string }): LocalDay[] {
  const first = localDayOf(range.from, range.tz);
  const last = localDayOf(new Date(range.to.getTime() - 1), range.tz);
  const days: LocalDay[] = [{ day: first, start: range.from }];
  for (let day = first; day < last;) {
    day = nextDay(day);
    days.push({ day, start: startOfLocalDay(day, range.tz) });
  }
  return days;
}

const HOUR_MS = 3_600_000;
const QUARTER_MS = 900_000;

const hourOf = (at: Date, tz: string) => `${formatInZone(at, tz).slice(0, 13)}:00`;

/**
 * The local hours [from, to) touches, each starting at the first instant the zone's clocks show it (the
 * first starts at `from`). Where clocks fall back, an hour shown twice is one bucket from its first start.
 */
export function localHours(range: { from: Date; to: Date; tz: string }): LocalHour[] {
  const { from, to, tz } = range;
  const hours: LocalHour[] = [{ label: hourOf(from, tz), start: from }];
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

/** From `start` on, until the next segment, the zone's clocks are `offsetSeconds` ahead of UTC. */
export type OffsetSegment = { start: Date; offsetSeconds: number; label: string };

const QUARTERS_PER_DAY = 96;

/**
 * The zone's offsets over [from, to), as Node's zone data has them: a segment from `from`, then one from
 * each change, so SQL can write local times with Node's clock (`width_bucket(at, starts)` picks the
 * segment) instead of its own zone data. Looks a day at a time and bisects to the quarter hour where the
 * offset changed (offsets change only on quarter hours, lib/time/zone.ts); a change undone within the
 * same day, which no zone has had since 1970, would be missed.
 */
export function offsetSegments(range: { from: Date; to: Date; tz: string }): OffsetSegment[] {
  const offsetAt = (quarter: number) => zoneOffsetMs(new Date(quarter * QUARTER_MS), range.tz);
  let quarter = Math.floor(range.from.getTime() / QUARTER_MS);
  const end = Math.ceil(range.to.getTime() / QUARTER_MS);
  let offset = offsetAt(quarter);
  const segments: OffsetSegment[] = [
    { start: range.from, offsetSeconds: offset / 1000, label: formatOffset(offset) },
  ];
  while (quarter < end) {
    const next = Math.min(quarter + QUARTERS_PER_DAY, end);
    if (offsetAt(next) === offset) {
      quarter = next;
      continue;
    }
    let before = quarter;
    let after = next;
    while (after - before > 1) {
      const middle = Math.floor((before + after) / 2);
      if (offsetAt(middle) === offset) before = middle;
      else after = middle;
    }
    offset = offsetAt(after);
    segments.push({
      start: new Date(after * QUARTER_MS),
      offsetSeconds: offset / 1000,
      label: formatOffset(offset),
    });
    quarter = after;
  }
  return segments;
}
