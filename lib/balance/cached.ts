import "server-only";
import { randomUUID } from "node:crypto";
import { getDb } from "@/lib/db";
import { ledgerCurrency } from "@/lib/ledger/balance";
import { recordComparison } from "@/lib/ledger/proof";
import type { PlatformClient } from "@/lib/platform/client";
import { sleep } from "@/lib/time/sleep";

/** The spec recommends at most one GET /balance per 5 seconds; this holds across users and instances. */
export const BALANCE_TTL_MS = 5_000;

/**
 * How long one instance's claim to read GET /balance stands: the others wait for its snapshot meanwhile
 * (and no longer, should it have died). Longer than a read that times out (PLATFORM_TIMEOUT_MS, 10 s).
 */
export const BALANCE_LEASE_MS = 30_000;
/** How often a caller waiting for another instance's read looks for its snapshot. */
const LEASE_POLL_MS = 200;
/** The lease's row in the Setting table (a key of its own, ignored by the settings schema). */
export const BALANCE_LEASE_KEY = "balanceReadLease";

export type BalanceView = {
  amountInCurrencyBalance: string;
  currencyBalance: string;
  amountInCurrencyPayment: string;
  currencyPayment: string;
  exchangeRate: string;
  traceID: string | null;
  fetchedAt: Date;
  /** True when the platform was asked for this answer; false when a recent snapshot was reused. */
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

type Platform = Pick<PlatformClient, "getBalance">;
type Context = { actorUserId?: string };
/** What time it is (a test dates its reads with one of its own). */
type Clock = () => Date | Promise<Date>;

/**
 * The database's clock, the one every instance shares (as the lease's): a snapshot dated by an
 * instance's own clock, running ahead, would count as fresh on the others for as long as it runs ahead.
 */
async function databaseNow(): Promise<Date> {
  const [row] = await getDb().$queryRaw<{ now: Date }[]>`SELECT now() AS now`;
  return row!.now;
}

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

// The read under way in this process, per platform client: concurrent callers share it (and its failure).
const inFlight = new WeakMap<Platform, Promise<BalanceView>>();

/**
 * The balance from a snapshot at most 5 s old, or from GET /balance (stored as a new snapshot). Snapshots
 * are dated, and their age counted, by the database's clock (databaseNow); one dated ahead of it is not
 * fresh. The record kept is the one in the ledger's currency should the platform answer with several
 * (before the ledger knows one: in PLATFORM_BALANCE_CURRENCY's).
 *
 * No database connection, transaction or lock is held while the platform is asked: a slow or failing
 * platform must not take the pool, nor serialise callers that would each ask it again.
 *  - In this process, concurrent callers share one read (one promise per platform client); a failed
 *    read is not kept, the next caller asks again.
 *  - Across instances, the read is claimed by a lease (a row of the Setting table, claimed and given
 *    back by one short statement each, never a lock held across the call). Another instance's caller
 *    waits for the snapshot the holder stores, and reads itself once the lease is given back without
 *    one or has expired.
 *  - The answer is written with its ledger comparison in one short transaction.
 * A failed read throws the platform's error: callers show the last stored balance
 * (lib/charts/current-balance.ts) or refuse (lib/payouts/platform-checks.ts).
 */
export function getBalanceCached(
  platform: Platform,
  context: Context = {},
  now: Clock = databaseNow,
): Promise<BalanceView> {
  const shared = inFlight.get(platform);
  if (shared) return shared;
  const read = readThrough(platform, context, now).finally(() => {
    if (inFlight.get(platform) === read) inFlight.delete(platform);
  });
  inFlight.set(platform, read);
  return read;
}

/** The newest snapshot of age 0 <= age < BALANCE_TTL_MS; one dated in the future (a clock ahead) is not. */
async function recentSnapshot(now: Clock): Promise<BalanceView | null> {
  const at = await now();
  const latest = await getDb().balanceSnapshot.findFirst({
    where: { takenAt: { lte: at, gt: new Date(at.getTime() - BALANCE_TTL_MS) } },
    orderBy: { takenAt: "desc" },
  });
  return latest ? view(latest, false) : null;
}

async function readThrough(platform: Platform, context: Context, now: Clock): Promise<BalanceView> {
  for (;;) {
    const recent = await recentSnapshot(now);
    if (recent) return recent;
    const holder = await claimLease();
    if (holder) {
      try {
        // Another instance may have stored one between the look and the claim.
        return (await recentSnapshot(now)) ?? (await readAndStore(platform, context, now));
      } finally {
        await releaseLease(holder);
      }
    }
    await sleep(LEASE_POLL_MS);
  }
}

/** The lease for this caller (its holder id), or null while another holder's lease stands (DB clock). */
async function claimLease(): Promise<string | null> {
  const holder = randomUUID();
  const claimed = await getDb().$executeRaw`
    INSERT INTO "Setting" (key, value, "updatedAt")
    VALUES (${BALANCE_LEASE_KEY}, jsonb_build_object('holder', ${holder}::text,
      'until', now() + ${`${BALANCE_LEASE_MS} milliseconds`}::interval), now())
    ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, "updatedAt" = EXCLUDED."updatedAt"
    WHERE ("Setting".value ->> 'until')::timestamptz IS NULL OR ("Setting".value ->> 'until')::timestamptz <= now()`;
  return claimed === 1 ? holder : null;
}

async function releaseLease(holder: string): Promise<void> {
  await getDb().$executeRaw`
    DELETE FROM "Setting" WHERE key = ${BALANCE_LEASE_KEY} AND value ->> 'holder' = ${holder}`;
}

async function readAndStore(platform: Platform, context: Context, now: Clock): Promise<BalanceView> {
  // The record in the ledger's currency, should the platform answer with several; before the ledger knows
  // one (a fresh install), in the configured PLATFORM_BALANCE_CURRENCY, which the client adds. When both
  // are known and differ the ledger's wins: the configured one only starts the ledger (lib/platform/client.ts).
  const currencyBalance = await ledgerCurrency();
  const requestedAt = await now();
  const { balance, traceID } = await platform.getBalance(context, { currencyBalance });
  const takenAt = await now();
  // Short: no platform call inside. The comparison reads the ledger's quarter-hour sums (quick), given
  // more than the default 5 s all the same.
  return getDb().$transaction(
    async (tx) => {
      const created = await tx.balanceSnapshot.create({
        data: {
          takenAt,
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
    { timeout: 15_000 },
  );
}
