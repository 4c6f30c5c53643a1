import "server-only";
import { getBalanceCached, type BalanceView } from "@/lib/balance/cached";
import { getDb } from "@/lib/db";
import { getLog } from "@/lib/log";
import { isPlatformError } from "@/lib/platform/errors";
import { getPlatformClient } from "@/lib/platform/from-env";

/** The balance as the page shows it: the cached record with its time as ISO text. */
export type CurrentBalance = Omit<BalanceView, "fetchedAt" | "fresh"> & { fetchedAt: string };

export type CurrentBalanceResult =
  | { ok: true; balance: CurrentBalance }
  /** The platform could not be read; `lastKnown` is the newest snapshot, if any. */
  | { ok: false; message: string; traceID: string | null; lastKnown: CurrentBalance | null };

/** The balance from the 5-second cache; when the platform fails, the last snapshot marked as such. */
export async function currentBalance(actorUserId: string): Promise<CurrentBalanceResult> {
  try {
    const b = await getBalanceCached(getPlatformClient(), { actorUserId });
    return {
      ok: true,
      balance: {
        amountInCurrencyBalance: b.amountInCurrencyBalance,
        currencyBalance: b.currencyBalance,
        amountInCurrencyPayment: b.amountInCurrencyPayment,
        currencyPayment: b.currencyPayment,
        exchangeRate: b.exchangeRate,
        traceID: b.traceID,
        fetchedAt: b.fetchedAt.toISOString(),
      },
    };
  } catch (error) {
    if (!isPlatformError(error)) throw error;
    getLog().warn({ traceID: error.traceID, err: error }, "balance read failed");
    const last = await getDb().balanceSnapshot.findFirst({ orderBy: { takenAt: "desc" } });
    return {
      ok: false,
      message: "The platform could not be read just now.",
      traceID: error.traceID,
      lastKnown: last
        ? {
            amountInCurrencyBalance: last.amountInCurrencyBalance.toFixed(),
            currencyBalance: last.currencyBalance,
            amountInCurrencyPayment: last.amountInCurrencyPayment.toFixed(),
            currencyPayment: last.currencyPayment,
            exchangeRate: last.exchangeRate.toFixed(),
            traceID: last.traceID,
            fetchedAt: last.takenAt.toISOString(),
          }
        : null,
    };
  }
}
