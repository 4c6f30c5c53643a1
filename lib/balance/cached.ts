import "server-only";
import { getDb } from "@/lib/db";
import { recordComparison } from "@/lib/ledger/proof";
import type { PlatformClient } from "@/lib/platform/client";

/** The spec recommends at most one GET /balance per 5 seconds; this holds across users and instances. */
export const BALANCE_TTL_MS = 5_000;

export type BalanceView = {
  amountInCurrencyBalance: string;
  currencyBalance: string;
  amountInCurrencyPayment: string;
  currencyPayment: string;
  exchangeRate: string;
  traceID: string | null;
  fetchedAt: Date;
  /** True when this call asked the platform; false when the recent snapshot was reused. */
  fresh: boolean;
};

type Snapshot = {
  amountInCurrencyBalance: { toFixed(): string };
  currencyBalance: string;
  amountInCurrencyPayment: { toFixed(): string };
  currencyPayment: string;
  exchangeRate: { toFixed(): string };
  traceID: string | null;
  takenAt: Date;
};

function view(s: Snapshot, fresh: boolean): BalanceView {
  return {
    amountInCurrencyBalance: s.amountInCurrencyBalance.toFixed(),
    currencyBalance: s.currencyBalance,
    amountInCurrencyPayment: s.amountInCurrencyPayment.toFixed(),
    currencyPayment: s.currencyPayment,
    exchangeRate: s.exchangeRate.toFixed(),
    traceID: s.traceID,
    fetchedAt: s.takenAt,
    fresh,
  };
}

/**
 * The balance from a snapshot at most 5 s old, or from GET /balance (stored as a new snapshot).
 * A transaction-scoped advisory lock makes concurrent callers on every instance wait for one fetch.
 */
export async function getBalanceCached(
  platform: Pick<PlatformClient, "getBalance">,
  context: { actorUserId?: string } = {},
  now = () => new Date(),
): Promise<BalanceView> {
  return getDb().$transaction(
    async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(7370002)`;
      const latest = await tx.balanceSnapshot.findFirst({ orderBy: { takenAt: "desc" } });
      if (latest && now().getTime() - latest.takenAt.getTime() < BALANCE_TTL_MS) return view(latest, false);
      const requestedAt = now();
      const { balance, traceID } = await platform.getBalance(context);
      const created = await tx.balanceSnapshot.create({
        data: {
          takenAt: now(),
          amountInCurrencyBalance: balance.amountInCurrencyBalance.toFixed(),
          currencyBalance: balance.currencyBalance,
          amountInCurrencyPayment: balance.amountInCurrencyPayment.toFixed(),
          currencyPayment: balance.currencyPayment,
          exchangeRate: balance.exchangeRate.toFixed(),
          traceID,
        },
      });
      await recordComparison(tx, created, requestedAt);
      return view(created, true);
    },
    { timeout: 30_000 },
  );
}
