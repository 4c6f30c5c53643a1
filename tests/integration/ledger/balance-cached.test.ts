// GET /balance through the 5-second cache (lib/balance/cached.ts), on a database of its own with a small
// pool: the platform is asked outside any transaction or lock (so no transaction limit can fail a late
// answer), concurrent callers share one read, another instance's read (its lease) is waited for, and a
// failure leaves the page the last stored balance.
process.env.DATABASE_POOL_SIZE = "3";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { BALANCE_LEASE_KEY, getBalanceCached } from "@/lib/balance/cached";
import { getDb } from "@/lib/db";
import { Decimal } from "@/lib/money/decimal";
import { PlatformError } from "@/lib/platform/errors";
import { isolateDatabase } from "../../support/database";

let restore: () => Promise<void>;
beforeAll(async () => {
  restore = await isolateDatabase();
});
afterAll(async () => {
  (globalThis as { paydeskPlatform?: unknown }).paydeskPlatform = undefined;
  await restore();
});
beforeEach(async () => {
  await getDb().balanceSnapshot.deleteMany();
  await getDb().setting.deleteMany({ where: { key: BALANCE_LEASE_KEY } });
});

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

const answer = (amount: string) => {
  const balance = {
    amountInCurrencyBalance: new Decimal(amount),
    currencyBalance: "USDT",
    amountInCurrencyPayment: new Decimal("9550"),
    currencyPayment: "RUB",
    exchangeRate: new Decimal("95.5"),
  };
  return { balance, balances: [balance], traceID: `t-${amount}` };
};

const timedOut = () =>
  new PlatformError({ kind: "timeout", method: "GET", path: "/balance", description: "no answer" });

/** What the database is doing for this database besides the probe: open transactions and advisory locks. */
async function heldMeanwhile() {
  const [row] = await getDb().$queryRaw<{ inTransaction: number; advisory: number }[]>`
    SELECT
      (SELECT count(*)::int FROM pg_stat_activity
        WHERE datname = current_database() AND pid <> pg_backend_pid()
          AND state IN ('idle in transaction', 'idle in transaction (aborted)')) AS "inTransaction",
      (SELECT count(*)::int FROM pg_locks
        WHERE locktype = 'advisory' AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
      ) AS advisory`;
  return row;
}

it("asks the platform outside any transaction or lock: the pool stays free while it is slow", async () => {
  let during: Awaited<ReturnType<typeof heldMeanwhile>> | undefined;
  const platform = {
    getBalance: async () => {
      await pause(300);
      during = await heldMeanwhile();
      return answer("100");
    },
  };
  const shown = await getBalanceCached(platform);
  expect(during).toEqual({ inTransaction: 0, advisory: 0 });
  expect(shown).toMatchObject({ amountInCurrencyBalance: "100", traceID: "t-100", fresh: true });
  expect(await getDb().balanceComparison.count()).toBe(1);
  // the lease is given back
  expect(await getDb().setting.findUnique({ where: { key: BALANCE_LEASE_KEY } })).toBeNull();
});

it("concurrent callers during an outage: one platform call shared by all, other queries not kept waiting", async () => {
  let calls = 0;
  const platform = {
    getBalance: async () => {
      calls++;
      await pause(1_000);
      throw timedOut();
    },
  };
  const readers = Array.from({ length: 6 }, () =>
    getBalanceCached(platform).then(
      () => "answered",
      (e: Error) => e.name,
    ),
  );
  await pause(200);
  const q0 = Date.now();
  await getDb().$queryRaw`SELECT 1`;
  const unrelatedQueryMs = Date.now() - q0;
  expect(await Promise.all(readers)).toEqual(Array(6).fill("PlatformError"));
  expect(calls).toBe(1);
  expect(unrelatedQueryMs).toBeLessThan(500);
  // a failure is not kept: the next caller asks again
  await expect(getBalanceCached(platform)).rejects.toThrow("no answer");
  expect(calls).toBe(2);
});

it("a snapshot under 5 s old answers without a call", async () => {
  const at = new Date("2032-01-01T00:00:00Z");
  let calls = 0;
  const platform = {
    getBalance: async () => {
      calls++;
      return answer("10");
    },
  };
  await getBalanceCached(platform, {}, () => at);
  const again = await getBalanceCached(platform, {}, () => new Date(at.getTime() + 4_999));
  expect(again).toMatchObject({ amountInCurrencyBalance: "10", fresh: false });
  expect(calls).toBe(1);
});

it("another instance's read under way (its lease): waits for its snapshot instead of asking", async () => {
  const at = new Date("2033-01-01T00:00:00Z");
  await getDb().$executeRaw`
    INSERT INTO "Setting" (key, value, "updatedAt")
    VALUES (${BALANCE_LEASE_KEY}, jsonb_build_object('holder', 'other-instance', 'until', now() + interval '20 seconds'), now())`;
  let calls = 0;
  const platform = {
    getBalance: async () => {
      calls++;
      return answer("1");
    },
  };
  const waiting = getBalanceCached(platform, {}, () => at);
  await pause(500);
  // the other instance stores its answer and gives the lease back
  await getDb().balanceSnapshot.create({
    data: {
      takenAt: at,
      amountInCurrencyBalance: "77",
      currencyBalance: "USDT",
      amountInCurrencyPayment: "7353.5",
      currencyPayment: "RUB",
      exchangeRate: "95.5",
      traceID: "t-other",
    },
  });
  expect(await waiting).toMatchObject({ amountInCurrencyBalance: "77", traceID: "t-other", fresh: false });
  expect(calls).toBe(0);
});

it("a lease given back or expired without a snapshot: the waiting caller reads itself", async () => {
  await getDb().$executeRaw`
    INSERT INTO "Setting" (key, value, "updatedAt")
    VALUES (${BALANCE_LEASE_KEY}, jsonb_build_object('holder', 'gone', 'until', now() + interval '400 milliseconds'), now())`;
  let calls = 0;
  const platform = {
    getBalance: async () => {
      calls++;
      return answer("5");
    },
  };
  expect(await getBalanceCached(platform)).toMatchObject({ amountInCurrencyBalance: "5", fresh: true });
  expect(calls).toBe(1);
});

it("the page shows the last stored balance when the platform fails", async () => {
  const { currentBalance } = await import("@/lib/charts/current-balance");
  await getBalanceCached({ getBalance: async () => answer("42") }, {}, () => new Date(Date.now() - 60_000));
  (globalThis as { paydeskPlatform?: unknown }).paydeskPlatform = {
    getBalance: async () => {
      throw timedOut();
    },
  };
  const result = await currentBalance(randomUUID());
  expect(result).toMatchObject({ ok: false, lastKnown: { amountInCurrencyBalance: "42" } });
});
