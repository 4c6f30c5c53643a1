import type { Metadata } from "next";
import Link from "next/link";
import { BalanceCard } from "@/components/balance/balance-card";
import BalanceCharts from "@/components/balance/charts";
import { requirePagePermission } from "@/lib/auth/session";
import { currentBalance } from "@/lib/charts/current-balance";
import {
  balanceHistory,
  dailyVolume,
  lastSuccessfulOperationRate,
  medianTimeToFinal,
  successRate,
} from "@/lib/charts/queries";
import { canonicalTimeZone } from "@/lib/time/zone";

export const metadata: Metadata = { title: "Balance" };

const PERIODS = [7, 30, 90] as const;

export default async function BalancePage({
  searchParams,
}: {
  searchParams: Promise<{ days?: string | string[]; tz?: string | string[] }>;
}) {
  const user = await requirePagePermission("balance.read");
  const { days: daysParam, tz: tzParam } = await searchParams;
  const days = PERIODS.find((d) => String(d) === daysParam) ?? 30;
  const tz = (typeof tzParam === "string" && canonicalTimeZone(tzParam)) || "UTC";
  const to = new Date();
  const range = { from: new Date(to.getTime() - days * 86_400_000), to, tz };

  const [balance, rateSource, history, volume, rate, timeToFinal] = await Promise.all([
    currentBalance(user.id),
    lastSuccessfulOperationRate(),
    balanceHistory(range),
    dailyVolume(range),
    successRate(range),
    medianTimeToFinal(range),
  ]);
  const shown = balance.ok ? balance.balance : balance.lastKnown;

  return (
    <section className="space-y-4">
      <h1 className="text-2xl font-semibold">Balance</h1>
      {!balance.ok && (
        <p
          role="alert"
          className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-200"
        >
          {balance.message} {shown ? "Showing the last known balance." : "No balance has been read yet."}
          {balance.traceID && ` traceID ${balance.traceID}`}
        </p>
      )}
      {shown && <BalanceCard balance={shown} rateSource={rateSource} />}
      <nav aria-label="Period" className="flex flex-wrap gap-2 text-sm">
        {PERIODS.map((d) => (
          <Link
            key={d}
            href={`/balance?days=${d}${tz !== "UTC" ? `&tz=${encodeURIComponent(tz)}` : ""}`}
            aria-current={d === days ? "page" : undefined}
            className="rounded-md border border-zinc-300 px-3 py-1 aria-[current=page]:border-indigo-500 dark:border-zinc-700"
          >
            {d} days
          </Link>
        ))}
        <span className="self-center text-xs text-zinc-500">Days in {tz}.</span>
      </nav>
      <BalanceCharts data={{ balance: history, volume, successRate: rate, timeToFinal }} />
    </section>
  );
}
