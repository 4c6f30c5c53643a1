// The 5-second balance cache (lib/balance/cached.ts) dates its snapshots and counts their age by the
// database's clock, the one every instance shares: an instance whose own clock runs fast neither dates a
// snapshot in the future nor gets one served as current to the others for as long as it runs ahead. A
// snapshot is reused only at an age of 0 <= age < BALANCE_TTL_MS.
import { afterAll, afterEach, beforeAll, beforeEach, expect, it, vi } from "vitest";
import { BALANCE_LEASE_KEY, BALANCE_TTL_MS, getBalanceCached } from "@/lib/balance/cached";
import { getDb } from "@/lib/db";
import { Decimal } from "@/lib/money/decimal";
import { isolateDatabase } from "../../support/database";

let restore: () => Promise<void>;
beforeAll(async () => {
  restore = await isolateDatabase();
});
afterAll(async () => restore());
beforeEach(async () => {
  await getDb().balanceComparison.deleteMany();
  await getDb().balanceSnapshot.deleteMany();
  await getDb().setting.deleteMany({ where: { key: BALANCE_LEASE_KEY } });
});
afterEach(() => {
  vi.useRealTimers();
});

/** A platform whose GET /balance says `amount` USDT, counting its calls. */
const platform = (amount: string) => {
  const p = {
    calls: 0,
    getBalance: async () => {
      p.calls++;
      const balance = {
        amountInCurrencyBalance: new Decimal(amount),
        currencyBalance: "USDT",
        amountInCurrencyPayment: new Decimal("1"),
        currencyPayment: "RUB",
        exchangeRate: new Decimal("95.5"),
      };
      return { balance, balances: [balance], traceID: `t-${amount}` };
    },
  };
  return p;
};

async function databaseNow(): Promise<Date> {
  const [row] = await getDb().$queryRaw<{ now: Date }[]>`SELECT now() AS now`;
  return row!.now;
}

it("dates a snapshot by the database's clock, not by an instance's clock running 2 minutes fast", async () => {
  const before = await databaseNow();
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(new Date(before.getTime() + 120_000));
  const shown = await getBalanceCached(platform("100"));
  vi.useRealTimers();
  const after = await databaseNow();
  const { takenAt } = await getDb().balanceSnapshot.findFirstOrThrow();
  expect(shown.fetchedAt).toEqual(takenAt);
  expect(takenAt.getTime()).toBeGreaterThanOrEqual(before.getTime());
  expect(takenAt.getTime()).toBeLessThanOrEqual(after.getTime());
}, 60_000);

it("a snapshot dated ahead of the database's clock is not served as current", async () => {
  // Stored by an instance whose clock ran 2 minutes fast (before snapshots were dated by the database).
  const now = await databaseNow();
  await getDb().balanceSnapshot.create({
    data: {
      takenAt: new Date(now.getTime() + 120_000),
      amountInCurrencyBalance: "100",
      currencyBalance: "USDT",
      amountInCurrencyPayment: "9550",
      currencyPayment: "RUB",
      exchangeRate: "95.5",
    },
  });
  const p = platform("40");
  const shown = await getBalanceCached(p);
  expect(p.calls).toBe(1);
  expect(shown).toMatchObject({ amountInCurrencyBalance: "40", fresh: true });
}, 60_000);

// takenAt minus the reader's time, and how often the reader then asks the platform.
it.each([
  ["2 minutes ahead of the reader", 120_000, 1],
  ["1 ms ahead of the reader", 1, 1],
  ["at the reader's time (age 0)", 0, 0],
  ["just under the time to live old", -(BALANCE_TTL_MS - 1), 0],
  ["exactly the time to live old", -BALANCE_TTL_MS, 1],
])(
  "a snapshot dated %s: the platform asked %i time(s)",
  async (_case, offsetMs, calls) => {
    const reader = new Date("2030-05-01T10:00:00Z");
    await getBalanceCached(platform("100"), {}, () => new Date(reader.getTime() + offsetMs));
    const p = platform("40");
    const shown = await getBalanceCached(p, {}, () => reader);
    expect(p.calls).toBe(calls);
    expect(shown.amountInCurrencyBalance).toBe(calls ? "40" : "100");
  },
  60_000,
);
