import type { Locale } from "@/lib/i18n/locales";

const NBSP = "\u00a0";

/**
 * An exact decimal string ("1250.0001", as the ledger gives it) written the way the language writes
 * numbers, every digit kept, as the money formatter groups them: English with commas between thousands
 * ("1,250.0001"), Russian with a decimal comma and no-break spaces ("1 250,0001"). Anything else is
 * returned unchanged. For display only.
 */
export function exactAmount(value: string, locale: Locale): string {
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(value);
  if (!match) return value;
  const [, sign = "", whole = "", fraction] = match;
  const [group, point] = locale === "en" ? [",", "."] : [NBSP, ","];
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, group);
  return `${sign}${grouped}${fraction ? `${point}${fraction}` : ""}`;
}
