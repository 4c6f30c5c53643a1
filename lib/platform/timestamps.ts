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
  return isoMilliseconds(text) ?? parseGeneral(text);
}

// The common case, in the one form toISOString() writes, "2025-11-18T14:53:31.079Z" (a page of a
// thousand operations holds two thousand): read from its digits when every field is in range, else
// left to the general path. Years before 1000 take the general path, which refuses those below 100.
const SEPARATORS: ReadonlyArray<readonly [number, number]> = [
  [4, 45], // -
  [7, 45],
  [10, 84], // T
  [13, 58], // :
  [16, 58],
  [19, 46], // .
  [23, 90], // Z
];

const between = (n: number, min: number, max: number) => n >= min && n <= max;

function isoMilliseconds(text: string): Date | null {
  if (text.length !== 24) return null;
  for (const [at, code] of SEPARATORS) if (text.charCodeAt(at) !== code) return null;
  const y = digits(text, 0, 4);
  const mo = digits(text, 5, 2);
  const d = digits(text, 8, 2);
  const h = digits(text, 11, 2);
  const mi = digits(text, 14, 2);
  const s = digits(text, 17, 2);
  const ms = digits(text, 20, 3);
  const fieldsInRange =
    between(y, 1000, 9999) &&
    between(mo, 1, 12) &&
    between(h, 0, 23) &&
    between(mi, 0, 59) &&
    between(s, 0, 59) &&
    between(ms, 0, 999);
  // Day 0 of the next month is this month's last day.
  if (!fieldsInRange || !between(d, 1, new Date(Date.UTC(y, mo, 0)).getUTCDate())) return null;
  return new Date(Date.UTC(y, mo - 1, d, h, mi, s, ms));
}

/** The number the `count` decimal digits at `from` spell, or -1 when one is not a digit. */
function digits(text: string, from: number, count: number): number {
  let n = 0;
  for (let i = from; i < from + count; i++) {
    const c = text.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return -1;
    n = n * 10 + c;
  }
  return n;
}

function parseGeneral(text: string): Date | null {
  const m = ISO.exec(text.trim());
  if (!m) return null;
  const [, y, mo, d, h, mi, s = "00", frac = "", zone = ""] = m;
  const ms = Number(frac.slice(0, 3).padEnd(3, "0"));
  const utc = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s), ms);
  // A field out of its range (month 13, 2025-02-30, 24:00, a 60th second) rolls over into the next one,
  // and a year below 100 reads as 19xx: such a text does not come back from the moment it names.
  if (new Date(utc).toISOString().slice(0, 19) !== `${y}-${mo}-${d}T${h}:${mi}:${s}`) return null;
  return new Date(utc - offsetMinutes(zone) * 60_000);
}

/** Minutes ahead of UTC of an explicit offset ("+03:00", "-0530"); 0 for "Z" or none. */
function offsetMinutes(zone: string): number {
  const offset = /^([+-])(\d{2}):?(\d{2})$/.exec(zone);
  if (!offset) return 0;
  const minutes = Number(offset[2]) * 60 + Number(offset[3]);
  return offset[1] === "-" ? -minutes : minutes;
}
