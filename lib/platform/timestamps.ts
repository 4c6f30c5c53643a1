/**
 * Platform timestamps: ISO-8601 UTC with `Z` and 0 to 7 fractional digits
 * ("2025-11-18T14:53:31.0796033Z"). Parsed by hand because Date.parse() on more than three fractional
 * digits is implementation-defined. Digits beyond milliseconds are truncated (not rounded), so a moment
 * never moves into the next millisecond; the original text is kept alongside for the raw payload.
 * An explicit offset (+03:00) is honoured; a timestamp without zone is read as UTC (the platform's
 * zone), since some .NET serialisers drop the `Z`.
 */
import "server-only";

const ISO = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?$/i;

export function parsePlatformTimestamp(text: string): Date | null {
  const m = ISO.exec(text.trim());
  if (!m) return null;
  const [, y, mo, d, h, mi, s = "0", frac = "", zone = "Z"] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s);
  const ms = Number(frac.slice(0, 3).padEnd(3, "0"));
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 59) return null;
  let t = Date.UTC(year, month - 1, day, hour, minute, second, ms);
  // Reject calendar overflow such as 2025-02-30.
  const check = new Date(t);
  if (check.getUTCDate() !== day || check.getUTCMonth() !== month - 1) return null;
  if (zone.toUpperCase() !== "Z") {
    const sign = zone.startsWith("-") ? -1 : 1;
    const digits = zone.slice(1).replace(":", "");
    const offsetMin = Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4));
    t -= sign * offsetMin * 60_000;
  }
  return new Date(t);
}
