/**
 * The calendar days of a zone as Node's Intl counts them: the clock every time on screen and in the
 * exports is read with. PostgreSQL carries zone data of its own, which may differ (from 2026-11-01 it
 * keeps America/Vancouver on UTC−7 while Node's keeps UTC−8): SQL never decides which day an instant
 * belongs to, it buckets instants by the starts computed here (`width_bucket(at, starts)` is the
 * 1-based index of the day). Pure: shared by server and client code.
 */
import { formatInZone, nextDay, zoneOffsetMs, zonedToUtc } from "@/lib/time/zone";

export type LocalDay = { day: string; start: Date };

/** The "YYYY-MM-DD" day of the zone at an instant. */
export const localDayOf = (at: Date, timeZone: string): string => formatInZone(at, timeZone).slice(0, 10);

/**
 * The first instant the zone's clocks show `day`. zonedToUtc answers the later of two midnights where
 * the clocks fall back onto one (Asia/Amman until 2022: 01:00 back to 00:00): the day starts at the first.
 */
export function startOfLocalDay(day: string, timeZone: string): Date {
  let start = zonedToUtc(day, timeZone);
  const midnightAsUtc = Date.parse(`${day}T00:00:00Z`);
  for (let i = 0; i < 3; i++) {
    const before = new Date(start.getTime() - 1);
    if (localDayOf(before, timeZone) < day) break;
    start = new Date(midnightAsUtc - zoneOffsetMs(before, timeZone));
  }
  return start;
}

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
