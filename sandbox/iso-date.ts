/**
 * ISO-8601 calendar dates and date-times ("2025-11-18", "2025-11-18T14:53:31.0796033Z",
 * "2025-11-18T17:53:31+03:00", "+0300" or "+03"; a comma before the fraction as ISO-8601 allows). A
 * date-time without an offset is read as UTC.
 * Returns epoch milliseconds, or undefined when the text is not a valid ISO-8601 value.
 */
const ISO_PATTERN =
  /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,7}))?)?(Z|[+-]\d{2}(?::?\d{2})?)?)?$/;

export function parseIsoDate(text: string): number | undefined {
  const match = ISO_PATTERN.exec(text);
  if (match === null) return undefined;
  const [, year, month, day, hour = "0", minute = "0", second = "0", fraction = "", offset = "Z"] = match;
  const y = Number(year);
  const mo = Number(month);
  const d = Number(day);
  const h = Number(hour);
  const mi = Number(minute);
  const s = Number(second);
  if (mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo) || h > 23 || mi > 59 || s > 59) return undefined;
  const millis = Number(fraction.padEnd(3, "0").slice(0, 3));
  const utc = Date.UTC(y, mo - 1, d, h, mi, s, millis) - offsetMinutes(offset) * 60_000;
  return Number.isNaN(utc) ? undefined : utc;
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

function offsetMinutes(offset: string): number {
  if (offset === "Z") return 0;
  const sign = offset.startsWith("-") ? -1 : 1;
  const digits = offset.slice(1).replace(":", "");
  return sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4)));
}
