import { z } from "zod";
import type { StatementPeriod } from "@/lib/ledger/statement";
import { canonicalTimeZone, formatInZone, isDateOnly, nextDay, zonedToUtc } from "@/lib/time/zone";

export const periodPresets = [
  "today",
  "yesterday",
  "this-month",
  "last-month",
  "last-30-days",
  "custom",
] as const;
export type PeriodPreset = (typeof periodPresets)[number];

export const periodQuerySchema = z.object({
  period: z.enum(periodPresets).default("last-month"),
  tz: z
    .string()
    .default("UTC")
    .transform((v, ctx) => {
      const zone = canonicalTimeZone(v);
      if (!zone) ctx.addIssue({ code: "custom", message: "Unknown time zone." });
      return zone ?? "UTC";
    }),
  // Custom periods: whole local days, `to` included.
  from: z.string().refine(isDateOnly, "Use YYYY-MM-DD.").optional(),
  to: z.string().refine(isDateOnly, "Use YYYY-MM-DD.").optional(),
});
export type PeriodQuery = z.infer<typeof periodQuerySchema>;

const firstOfMonth = (day: string) => `${day.slice(0, 7)}-01`;
function addMonths(first: string, n: number): string {
  const [y, m] = first.split("-").map(Number) as [number, number];
  const d = new Date(Date.UTC(y, m - 1 + n, 1));
  return d.toISOString().slice(0, 10);
}
function addDays(day: string, n: number): string {
  const [y, m, d] = day.split("-").map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + n)).toISOString().slice(0, 10);
}

/**
 * The period a query names, as local days of its zone ("last 30 days" ends now). Returns an error text
 * for a custom period that is missing a bound, reversed, or longer than about 13 months.
 */
export function resolvePeriod(
  q: PeriodQuery,
  now = new Date(),
): { ok: true; period: StatementPeriod; label: string } | { ok: false; message: string } {
  const today = formatInZone(now, q.tz).slice(0, 10);
  const local = (first: string, afterLast: string, label: string) => ({
    ok: true as const,
    period: { from: zonedToUtc(first, q.tz), to: zonedToUtc(afterLast, q.tz), tz: q.tz },
    label,
  });
  switch (q.period) {
    case "today":
      return local(today, nextDay(today), today);
    case "yesterday":
      return local(addDays(today, -1), today, addDays(today, -1));
    case "this-month":
      return local(firstOfMonth(today), addMonths(firstOfMonth(today), 1), today.slice(0, 7));
    case "last-month": {
      const first = addMonths(firstOfMonth(today), -1);
      return local(first, firstOfMonth(today), first.slice(0, 7));
    }
    case "last-30-days":
      return {
        ok: true,
        period: { from: zonedToUtc(addDays(today, -29), q.tz), to: now, tz: q.tz },
        label: `${addDays(today, -29)} — ${today}`,
      };
    case "custom": {
      if (!q.from || !q.to) return { ok: false, message: "Choose both the first and the last day." };
      if (q.to < q.from) return { ok: false, message: "The last day comes before the first day." };
      if (addDays(q.from, 400) < q.to) return { ok: false, message: "A statement covers at most 400 days." };
      return local(q.from, nextDay(q.to), `${q.from} — ${q.to}`);
    }
  }
}
