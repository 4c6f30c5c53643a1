import { z } from "zod";
import type { StatementPeriod } from "@/lib/ledger/statement";
import type { Locale } from "@/lib/i18n/locales";
import { localDayOf, startOfLocalDay } from "@/lib/time/local-days";
import { canonicalTimeZone, isDateOnly, nextDay } from "@/lib/time/zone";

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
  // A custom period cut short at this instant (ISO 8601, UTC) instead of the end of `to`: "last 30
  // days" as a page showed it (shownPeriodQuery).
  until: z.iso.datetime({ error: "statements.period.instantFormat" }).optional(),
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
export type PeriodProblem = "missingDay" | "reversed" | "tooLong" | "untilOutside";

/**
 * The period a query names, as local days of its zone ("last 30 days" ends now). Refuses a custom
 * period that is missing a bound, reversed, longer than about 13 months, or cut short (`until`) outside
 * its days.
 */
export function resolvePeriod(
  q: PeriodQuery,
  now = new Date(),
): { ok: true; period: StatementPeriod; label: string } | { ok: false; problem: PeriodProblem } {
  const today = localDayOf(now, q.tz);
  const local = (first: string, afterLast: string, label: string) => ({
    ok: true as const,
    period: { from: startOfLocalDay(first, q.tz), to: startOfLocalDay(afterLast, q.tz), tz: q.tz },
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
        period: { from: startOfLocalDay(addDays(today, -29), q.tz), to: now, tz: q.tz },
        label: `${addDays(today, -29)} — ${today}`,
      };
    case "custom": {
      if (!q.from || !q.to) return { ok: false, problem: "missingDay" };
      if (q.to < q.from) return { ok: false, problem: "reversed" };
      if (addDays(q.from, 400) < q.to) return { ok: false, problem: "tooLong" };
      const days = local(q.from, nextDay(q.to), `${q.from} — ${q.to}`);
      if (q.until === undefined) return days;
      const until = new Date(q.until);
      if (!(until > days.period.from && until <= days.period.to))
        return { ok: false, problem: "untilOutside" };
      return { ...days, period: { ...days.period, to: until } };
    }
  }
}

/** A custom period as the links and the "Issue" button carry it (search parameters). */
export type ShownPeriodQuery = {
  period: "custom";
  tz: string;
  from: string;
  to: string;
  until?: string;
};

/**
 * The custom period that resolves to exactly `p`, at any later moment: what the page hands to "Issue"
 * and to the download links, so that they act on the period it showed. A preset resolved again at the
 * click names other days once midnight has passed (a page drawn at 23:59:59 on 31 March shows March as
 * "this month"; two seconds later that is April), and "last 30 days" ends at another instant every time.
 * `p` starts a local day (every preset's period does).
 */
export function shownPeriodQuery(p: StatementPeriod): ShownPeriodQuery {
  const last = localDayOf(new Date(p.to.getTime() - 1), p.tz);
  const wholeDays = startOfLocalDay(nextDay(last), p.tz).getTime() === p.to.getTime();
  return {
    period: "custom",
    tz: p.tz,
    from: localDayOf(p.from, p.tz),
    to: last,
    ...(wholeDays ? {} : { until: p.to.toISOString() }),
  };
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
