import type { Metadata } from "next";
import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { BalanceCard } from "@/components/balance/balance-card";
import BalanceCharts from "@/components/balance/charts";
import { Movements } from "@/components/balance/movements";
import { ProofCard } from "@/components/balance/proof-card";
import { can } from "@/lib/auth/permissions";
import { requirePagePermission } from "@/lib/auth/session";
import { currentBalance } from "@/lib/charts/current-balance";
import {
  balanceHistory,
  dailyVolume,
  lastSuccessfulOperationRate,
  medianTimeToFinal,
  successRate,
} from "@/lib/charts/queries";
import { requestPreferences } from "@/lib/auth/request-preferences";
import { translatorFor } from "@/lib/auth/translator";
import { dailyClosings } from "@/lib/ledger/balance";
import { listMovements } from "@/lib/ledger/movements";
import { proofStatus, settleComparisonsIfFree } from "@/lib/ledger/proof";
import { getSettings } from "@/lib/settings/settings";
import { localDayOf, startOfLocalDay } from "@/lib/time/local-days";
import { canonicalTimeZone } from "@/lib/time/zone";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("balance");
  return { title: t("title") };
}

const PERIODS = [7, 30, 90] as const;

export default async function BalancePage({
  searchParams,
}: {
  searchParams: Promise<{ days?: string | string[]; tz?: string | string[] }>;
}) {
  const user = await requirePagePermission("balance.read");
  const { days: daysParam, tz: tzParam } = await searchParams;
  // translatorFor rather than getTranslations: the same words, and the page also runs outside Next (tests).
  const t = await translatorFor("balance");
  const { timeZone } = await requestPreferences();
  const days = PERIODS.find((d) => String(d) === daysParam) ?? 30;
  // Days are counted in the user's zone unless the address names another.
  const tz = (typeof tzParam === "string" && canonicalTimeZone(tzParam)) || timeZone;
  const to = new Date();
  // Whole local days, the first one from midnight of the zone (the newest is today, so far): the charts
  // and the ledger's closings count the same days, and no day shown is cut short.
  const range = {
    from: startOfLocalDay(localDayOf(new Date(to.getTime() - days * 86_400_000), tz), tz),
    to,
    tz,
  };

  // Differences older than the allowed time become movements outside operations first (unless the proof is
  // settling already: then it, or the ledger-upkeep job, settles them; the page does not wait for it); then
  // the balance read, whose fresh answer records the comparison the proof shows.
  await settleComparisonsIfFree((await getSettings()).balanceDifferenceMinutes);
  const balance = await currentBalance(user.id);
  const [rateSource, history, volume, rate, timeToFinal, ledgerDays, proof, movements] = await Promise.all([
    lastSuccessfulOperationRate(),
    balanceHistory(range),
    dailyVolume(range),
    successRate(range),
    medianTimeToFinal(range),
    dailyClosings(range),
    proofStatus(),
    listMovements(),
  ]);
  const shown = balance.ok ? balance.balance : balance.lastKnown;

  return (
    <section className="space-y-4">
      <h1 className="text-2xl font-semibold">{t("title")}</h1>
      {!balance.ok && (
        <p
          role="alert"
          className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-200"
        >
          {t("unreadable")} {shown ? t("showingLastKnown") : t("noneReadYet")}
          {balance.traceID && ` traceID ${balance.traceID}`}
        </p>
      )}
      {shown && <BalanceCard balance={shown} rateSource={rateSource} timeZone={tz} />}
      <ProofCard proof={proof} timeZone={tz} />
      <Movements rows={movements} mayAnnotate={can(user.role, "balance.annotate")} timeZone={tz} />
      <nav aria-label={t("periodNav")} className="flex flex-wrap gap-2 text-sm">
        {PERIODS.map((d) => (
          <Link
            key={d}
            href={`/balance?days=${d}${tz !== timeZone ? `&tz=${encodeURIComponent(tz)}` : ""}`}
            aria-current={d === days ? "page" : undefined}
            className="rounded-md border border-zinc-300 px-3 py-1 aria-[current=page]:border-indigo-500 dark:border-zinc-700"
          >
            {t("days", { count: d })}
          </Link>
        ))}
        <span className="self-center text-xs text-zinc-500">{t("daysIn", { zone: tz })}</span>
      </nav>
      <BalanceCharts
        data={{
          balance: history,
          ledger: { currency: shown?.currencyBalance ?? null, days: ledgerDays },
          volume,
          successRate: rate,
          timeToFinal,
        }}
      />
    </section>
  );
}
