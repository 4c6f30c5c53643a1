/**
 * The calendar days of a zone as Node's Intl counts them: the clock every time on screen and in the
 * exports is read with. PostgreSQL carries zone data of its own, which may differ (from 2026-11-01 it
 * keeps America/Vancouver on UTC−7 while Node's keeps UTC−8): SQL never decides which day an instant
 * belongs to, it buckets instants by the starts computed here (`width_bucket(at, starts)` is the
 * 1-based index of the day). Pure: shared by server and client code.
 */
import { formatInZone, nextDay, zoneOffsetMs, zonedToUtc } from "@/lib/time/zone";

export type LocalDay = { day: string; start: Date };

/** A local hour, labelled "YYYY-MM-DD HH:00", from the first instant the zone's clocks show it. */
export type LocalHour = { label: string; start: Date };

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
