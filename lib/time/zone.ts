/**
 * IANA time zones without a library: validation, local wall time -> UTC instant, and display.
 * Shared by server and client code (pure, no env).
 */
import type { Locale } from "@/lib/i18n/locales";

const formatters = new Map<string, Intl.DateTimeFormat>();

function partsFormatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** The canonical name of an IANA zone ("europe/moscow" -> "Europe/Moscow"), or null when unknown. */
export function canonicalTimeZone(value: string): string | null {
  if (!/^[A-Za-z0-9_+\-/]{1,64}$/.test(value)) return null;
  try {
    return new Intl.DateTimeFormat("en-US", { timeZone: value }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

type WallTime = { year: number; month: number; day: number; hour: number; minute: number; second: number };

function wallTime(date: Date, timeZone: string): WallTime {
  const out: Record<string, number> = {};
  for (const part of partsFormatter(timeZone).formatToParts(date)) {
    if (part.type !== "literal") out[part.type] = Number(part.value);
  }
  return {
    year: out.year!,
    month: out.month!,
    day: out.day!,
    hour: out.hour!,
    minute: out.minute!,
    second: out.second!,
  };
}

// Zone offsets only change on quarter-hour boundaries, so one lookup serves every instant of a quarter
// hour: an export of a million rows asks Intl a few thousand times instead of two million.
const QUARTER_HOUR_MS = 15 * 60_000;
const offsets = new Map<string, number>();

/** Offset of the zone from UTC at an instant, in milliseconds (Moscow: +3 h). */
export function zoneOffsetMs(date: Date, timeZone: string): number {
  if (timeZone === "UTC") return 0;
  const key = `${timeZone}@${Math.floor(date.getTime() / QUARTER_HOUR_MS)}`;
  let offset = offsets.get(key);
  if (offset === undefined) {
    const w = wallTime(date, timeZone);
    const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
    offset = asUtc - Math.floor(date.getTime() / 1000) * 1000;
    if (offsets.size > 100_000) offsets.clear();
    offsets.set(key, offset);
  }
  return offset;
}

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?)?$/;

/**
 * The days a date typed by a person may name. The calendar goes on, but the day after 9999-12-31 has no
 * four-digit year (a date-only `to` includes its whole day: it ends at the next midnight), and years
 * before 1000 are typing mistakes in a payment back-office. Every input that takes a day checks it here.
 */
export const FIRST_DAY = "1000-01-01";
export const LAST_DAY = "9998-12-31";
const FIRST_YEAR = 1000;
const LAST_YEAR = 9998;

/** True when the text names a real calendar day (and a valid time, if any), of any year from 0100 to 9999. */
function isCalendarDateTime(value: string): boolean {
  const m = LOCAL.exec(value);
  if (!m) return false;
  const [y, mo, d, h = "0", mi = "0", s = "0"] = m.slice(1);
  // Date.UTC reads the years 0-99 as 1900-1999: such a year never round-trips, and is refused.
  const date = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d)));
  return (
    date.getUTCFullYear() === Number(y) &&
    date.getUTCMonth() === Number(mo) - 1 &&
    date.getUTCDate() === Number(d) &&
    Number(h) < 24 &&
    Number(mi) < 60 &&
    Number(s) < 60
  );
}

/**
 * What is wrong with a day or date-time typed by a person: "format" (not "2026-11-20" or
 * "2026-11-20T13:05[:09[.123]]", or no such day or time), "range" (a year outside FIRST_DAY...LAST_DAY),
 * or null. With `dateOnly`, a time is a format error.
 */
export function localDateTimeProblem(
  value: string,
  options: { dateOnly?: boolean } = {},
): "format" | "range" | null {
  if (!LOCAL.test(value) || (options.dateOnly && value.length !== 10)) return "format";
  const year = Number(value.slice(0, 4));
  if (year < FIRST_YEAR || year > LAST_YEAR) return "range";
  return isCalendarDateTime(value) ? null : "format";
}

/**
 * True for "2026-11-20", "2026-11-20T13:05" and "2026-11-20T13:05:09.123" that name a real calendar
 * day from FIRST_DAY to LAST_DAY.
 */
export function isLocalDateTime(value: string): boolean {
  return localDateTimeProblem(value) === null;
}

/** True for a "YYYY-MM-DD" that names a real calendar day from FIRST_DAY to LAST_DAY. */
export function isDateOnly(value: string): boolean {
  return localDateTimeProblem(value, { dateOnly: true }) === null;
}

const DAY_MS = 86_400_000;

/**
 * The first UTC instant at which the clocks of `timeZone` show `local` ("2026-11-20" or
 * "2026-11-20T13:05"): where clocks fell back and show it twice, the earlier (a day whose clocks fall
 * back onto midnight starts at the first one). A wall time skipped by a jump ahead resolves to the
 * instant just after the jump.
 */
export function zonedToUtc(local: string, timeZone: string): Date {
  const m = LOCAL.exec(local);
  // Any real calendar day: the day after LAST_DAY too (a date-only `to` ends there).
  if (!m || !isCalendarDateTime(local)) throw new RangeError(`not a local date-time: ${local}`);
  const [y, mo, d, h = "0", mi = "0", s = "0", ms = "0"] = m.slice(1);
  const asUtc = Date.UTC(
    Number(y),
    Number(mo) - 1,
    Number(d),
    Number(h),
    Number(mi),
    Number(s),
    Number(ms.padEnd(3, "0")),
  );
  // The instant lies within 14 hours of `asUtc`: the offsets a day either side are the ones it may have.
  const candidates = [asUtc - DAY_MS, asUtc + DAY_MS].map((t) => asUtc - zoneOffsetMs(new Date(t), timeZone));
  const shown = candidates.filter((t) => asUtc - zoneOffsetMs(new Date(t), timeZone) === t);
  return new Date(shown.length > 0 ? Math.min(...shown) : Math.max(...candidates));
}

/** The day after a "YYYY-MM-DD" date, as "YYYY-MM-DD"; a RangeError past year 9999 (no such text). */
export function nextDay(date: string): string {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  const next = new Date(Date.UTC(y, m - 1, d + 1)).toISOString();
  if (!/^\d{4}-/.test(next)) throw new RangeError(`no four-digit day after ${date}`);
  return next.slice(0, 10);
}

/** The zone's wall clock at an instant, from the (cached) offset: the instant shifted, read as UTC. */
function wallTimeFromOffset(date: Date, timeZone: string): WallTime {
  const t = new Date(date.getTime() + zoneOffsetMs(date, timeZone));
  return {
    year: t.getUTCFullYear(),
    month: t.getUTCMonth() + 1,
    day: t.getUTCDate(),
    hour: t.getUTCHours(),
    minute: t.getUTCMinutes(),
    second: t.getUTCSeconds(),
  };
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/** "2026-11-20T13:05:09.123+03:00": the instant as the zone's clocks show it, with the offset. */
export function formatInZoneIso(date: Date, timeZone: string): string {
  const w = wallTimeFromOffset(date, timeZone);
  return (
    `${w.year}-${pad(w.month)}-${pad(w.day)}T${pad(w.hour)}:${pad(w.minute)}:${pad(w.second)}` +
    `.${pad(date.getUTCMilliseconds(), 3)}${formatOffset(zoneOffsetMs(date, timeZone))}`
  );
}

/** "+03:00", "-08:00", "+05:45": an offset from UTC to the minute, as ISO 8601 writes it. */
export function formatOffset(offsetMs: number): string {
  const minutes = Math.round(offsetMs / 60_000);
  const abs = Math.abs(minutes);
  return `${minutes < 0 ? "-" : "+"}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/** "2026-11-20 13:05:09" in the zone: machine-readable (exports, logs). */
export function formatInZone(date: Date, timeZone: string): string {
  const w = wallTimeFromOffset(date, timeZone);
  return `${w.year}-${pad(w.month)}-${pad(w.day)} ${pad(w.hour)}:${pad(w.minute)}:${pad(w.second)}`;
}

/**
 * What a person reads, one form per language everywhere in the interface: ru "20.11.2026 13:05:09",
 * en "2026-11-20 13:05:09" (seconds kept: support matches webhooks and calls by them).
 */
export function formatDateTime(date: Date, timeZone: string, locale: Locale): string {
  const w = wallTimeFromOffset(date, timeZone);
  const time = `${pad(w.hour)}:${pad(w.minute)}:${pad(w.second)}`;
  return `${formatDay(w, locale)} ${time}`;
}

/** A calendar day in the zone: ru "20.11.2026", en "2026-11-20". */
export function formatDate(date: Date, timeZone: string, locale: Locale): string {
  return formatDay(wallTimeFromOffset(date, timeZone), locale);
}

/** A "YYYY-MM-DD" day as the language writes it. */
export function formatIsoDay(day: string, locale: Locale): string {
  const [year, month, dayOfMonth] = day.split("-").map(Number) as [number, number, number];
  return formatDay({ year, month, day: dayOfMonth }, locale);
}

function formatDay(w: { year: number; month: number; day: number }, locale: Locale): string {
  return locale === "ru"
    ? `${pad(w.day)}.${pad(w.month)}.${w.year}`
    : `${w.year}-${pad(w.month)}-${pad(w.day)}`;
}

const UNITS: Record<Locale, { d: string; h: string; min: string; s: string }> = {
  en: { d: "d", h: "h", min: "min", s: "s" },
  ru: { d: "д", h: "ч", min: "мин", s: "с" },
};

/** "2 h 05 min", "45 s", "3 d 4 h" (ru "2 ч 05 мин"): a duration for humans. */
export function formatDuration(ms: number, locale: Locale = "en"): string {
  const u = UNITS[locale];
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s} ${u.s}`;
  const min = Math.floor(s / 60);
  if (min < 60) return `${min} ${u.min} ${pad(s % 60)} ${u.s}`;
  const h = Math.floor(min / 60);
  if (h < 24) return `${h} ${u.h} ${pad(min % 60)} ${u.min}`;
  return `${Math.floor(h / 24)} ${u.d} ${h % 24} ${u.h}`;
}
