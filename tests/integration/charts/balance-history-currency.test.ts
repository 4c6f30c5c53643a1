// The ledger chart's platform points are drawn on the ledger's axis: only snapshots in the ledger's
// currency. A record in another currency is stored (and raised as a balance difference), never drawn.
import { afterAll, beforeAll, expect, it } from "vitest";
import { balanceHistory } from "@/lib/charts/queries";
import { getDb } from "@/lib/db";
import { isolateDatabase } from "../../support/database";

let restore: () => Promise<void>;
beforeAll(async () => {
  restore = await isolateDatabase();
});
afterAll(() => restore());

const snapshot = (takenAt: string, amount: string, currencyBalance: string) => ({
  takenAt: new Date(takenAt),
  amountInCurrencyBalance: amount,
  currencyBalance,
  amountInCurrencyPayment: "0",
  currencyPayment: "RUB",
  exchangeRate: "0",
});

it("draws only the snapshots in the ledger's currency", async () => {
  await getDb().balanceSnapshot.createMany({
    data: [
      snapshot("2030-01-01T10:00:00Z", "100", "USDT"),
      // later in the same hour, in the payment currency: an odd answer of the platform
      snapshot("2030-01-01T10:30:00Z", "9550", "RUB"),
      snapshot("2030-01-01T11:10:00Z", "101.5", "USDT"),
    ],
  });
  const range = { from: new Date("2030-01-01T00:00:00Z"), to: new Date("2030-01-02T00:00:00Z"), tz: "UTC" };
  const points = await balanceHistory(range);
  expect(points.map((p) => [p.at, p.amountInCurrencyBalance, p.currencyBalance])).toEqual([
    ["2030-01-01 10:00", "100", "USDT"],
    ["2030-01-01 11:00", "101.5", "USDT"],
  ]);
});
