// The balance page: its charts count whole local days (the first from midnight of the zone, the newest
// today so far), the same days as the ledger's closings beside them; and it settles the balance proof
// only when no one else is settling it, never waiting for the proof's lock.
import pg from "pg";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import BalanceCharts, { type ChartsData } from "@/components/balance/charts";
import { getDatabaseUrl } from "@/lib/env";
import { Decimal } from "@/lib/money/decimal";
import { isolateDatabase } from "../../support/database";
import { createStaff, insertOperations } from "../../support/mirror";
import { propsOf } from "../../support/page-text";

const session = vi.hoisted(() => ({ current: null as null | { userId: string; sessionVersion: number } }));
vi.mock("@/lib/auth/config", () => ({ auth: async () => session.current }));
vi.mock("next/headers", () => ({ headers: async () => new Headers({ host: "paydesk.test" }) }));

let restore: () => Promise<void>;
beforeAll(async () => {
  restore = await isolateDatabase();
  const balance = {
    amountInCurrencyBalance: new Decimal("2"),
    currencyBalance: "USDT",
    amountInCurrencyPayment: new Decimal("191"),
    currencyPayment: "RUB",
    exchangeRate: new Decimal("95.5"),
  };
  (globalThis as { paydeskPlatform?: unknown }).paydeskPlatform = {
    getBalance: async () => ({ balance, balances: [balance], traceID: "t" }),
  };
  const user = await createStaff("finance");
  session.current = { userId: user.id, sessionVersion: 0 };
});
afterAll(async () => {
  vi.useRealTimers();
  (globalThis as { paydeskPlatform?: unknown }).paydeskPlatform = undefined;
  await restore();
});

async function renderPage(searchParams: { days?: string; tz?: string }) {
  const { default: Page } = await import("@/app/(console)/balance/page");
  return Page({ searchParams: Promise.resolve(searchParams) });
}

it("the 30-day charts start at midnight of their first day, the ledger closings' first day", async () => {
  // Two successful pay-ins on 31 March (Moscow, UTC+3): 09:00 and 20:00 local.
  await insertOperations(
    ["2030-03-31T06:00:00Z", "2030-03-31T17:00:00Z"].map((at) => ({
      dateAdded: new Date(at),
      dateUpdated: new Date(new Date(at).getTime() + 60_000),
      status: "success" as const,
      amount: "100",
      amountInCurrencyBalance: "1",
      amountComissionInCurrencyBalance: "0",
    })),
  );
  // Opened on 30 April at 15:00 in Moscow: "30 days" reaches back into 31 March, 15:00.
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(new Date("2030-04-30T12:00:00Z"));
  let tree;
  try {
    tree = await renderPage({ days: "30", tz: "Europe/Moscow" });
  } finally {
    vi.useRealTimers();
  }
  const [props] = propsOf<{ data: ChartsData }>(tree, BalanceCharts);
  const data = props!.data;
  expect(data.ledger?.days[0]?.day).toBe("2030-03-31");
  expect(data.ledger?.days.at(-1)?.day).toBe("2030-04-30");
  // The bar of 31 March counts the whole of 31 March: the morning pay-in too.
  const on31 = data.volume.filter((r) => r.day === "2030-03-31");
  expect(on31.reduce((n, r) => n + r.count, 0)).toBe(2);
  const rate31 = data.successRate.filter((r) => r.day === "2030-03-31");
  expect(rate31.map((r) => [r.succeeded, r.finished])).toEqual([[2, 2]]);
  // No day before the ledger's first one.
  for (const rows of [data.volume, data.successRate, data.timeToFinal])
    for (const r of rows) expect(r.day >= "2030-03-31").toBe(true);
}, 60_000);

it("does not wait for the balance proof while another runner settles it", async () => {
  // Another session holds the proof's lock, as a long settleComparisons (the ledger-upkeep job) does.
  const holder = new pg.Client({ connectionString: getDatabaseUrl() });
  await holder.connect();
  await holder.query("SELECT pg_advisory_lock(7370011)");
  let ended: Promise<void> | null = null;
  const release = () => (ended ??= holder.end());
  const timer = setTimeout(() => void release(), 20_000);
  const started = Date.now();
  try {
    const tree = await renderPage({ days: "7", tz: "UTC" });
    expect(propsOf(tree, BalanceCharts)).toHaveLength(1);
  } finally {
    clearTimeout(timer);
    await release();
  }
  expect(Date.now() - started).toBeLessThan(8_000);
}, 60_000);
