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
  // The common case, already in the one form toISOString() writes (a page of a thousand operations holds
  // two thousand): read natively, kept only if it names exactly that moment. Years before 1000 take the
  // general path, which refuses those below 100.
  if (text.length === 24 && text[0] !== "0") {
    const date = new Date(text);
    if (!Number.isNaN(date.getTime()) && date.toISOString() === text) return date;
  }
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
