import { z } from "zod";
import type { StatementPeriod } from "@/lib/ledger/statement";
import type { Locale } from "@/lib/i18n/locales";
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
      if (!zone) ctx.addIssue({ code: "custom", message: "statements.period.unknownZone" });
      return zone ?? "UTC";
    }),
  // Custom periods: whole local days, `to` included.
  from: z.string().refine(isDateOnly, "statements.period.dayFormat").optional(),
  to: z.string().refine(isDateOnly, "statements.period.dayFormat").optional(),
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

/** Why a custom period cannot be resolved; worded by the catalog (`statements.period.<problem>`). */
export type PeriodProblem = "missingDay" | "reversed" | "tooLong";

/**
 * The period a query names, as local days of its zone ("last 30 days" ends now). Refuses a custom
 * period that is missing a bound, reversed, or longer than about 13 months.
 */
export function resolvePeriod(
  q: PeriodQuery,
  now = new Date(),
): { ok: true; period: StatementPeriod; label: string } | { ok: false; problem: PeriodProblem } {
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
      if (!q.from || !q.to) return { ok: false, problem: "missingDay" };
      if (q.to < q.from) return { ok: false, problem: "reversed" };
      if (addDays(q.from, 400) < q.to) return { ok: false, problem: "tooLong" };
      return local(q.from, nextDay(q.to), `${q.from} — ${q.to}`);
    }
  }
}

/** A period's label with its days as the language writes them (ru "01.03.2031 — 10.03.2031", a month "03.2031"). */
export function localPeriodLabel(label: string, locale: Locale): string {
  if (locale === "en") return label;
  return label.replace(
    /\b(\d{4})-(\d{2})(?:-(\d{2}))?\b/g,
    (_match, year: string, month: string, day?: string) =>
      day ? `${day}.${month}.${year}` : `${month}.${year}`,
  );
}
