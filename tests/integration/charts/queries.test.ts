import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { balanceHistory, dailyVolume, medianTimeToFinal, successRate } from "@/lib/charts/queries";
import { insertOperations } from "../../support/mirror";

// This file owns the year 2008 of the mirror and of balance snapshots.
const range = {
  from: new Date("2008-03-01T00:00:00Z"),
  to: new Date("2008-03-03T00:00:00Z"),
  tz: "Europe/Moscow",
};
const minute = 60_000;

beforeAll(async () => {
  const t0 = new Date("2008-03-01T10:00:00Z").getTime();
  const ids = await insertOperations([
    { dateAdded: new Date(t0), dateUpdated: new Date(t0 + 2 * minute), status: "success", amount: "0.1" },
    {
      dateAdded: new Date(t0 + minute),
      dateUpdated: new Date(t0 + 5 * minute),
      status: "success",
      amount: "0.2",
    },
    {
      dateAdded: new Date(t0 + 2 * minute),
      dateUpdated: new Date(t0 + 12 * minute),
      status: "failed",
      amount: "1000000000000.0001",
    },
    { dateAdded: new Date(t0 + 3 * minute), status: "in_progress", amount: "7" },
    {
      dateAdded: new Date(t0),
      dateUpdated: new Date(t0 + minute),
      status: "success",
      typeOperation: "payOut",
      amount: "3",
    },
    // 21:30 UTC is already 2 March in Moscow
    { dateAdded: new Date("2008-03-01T21:30:00Z"), status: "created", amount: "1" },
  ]);
  // the first success was recorded by a webhook 1 minute after creation: that wins over dateUpdated
  await getDb().operationStatusChange.create({
    data: {
      operationId: ids[0]!,
      fromStatus: "in_progress",
      toStatus: "success",
      source: "webhook",
      platformDateUpdated: new Date(t0 + minute),
    },
  });
  await getDb().balanceSnapshot.createMany({
    data: [
      {
        takenAt: new Date("2008-03-01T10:00:01Z"),
        amountInCurrencyBalance: "1.0001",
        currencyBalance: "USDT",
        amountInCurrencyPayment: "95.51",
        currencyPayment: "RUB",
        exchangeRate: "95.5",
        traceID: randomUUID(),
      },
      {
        takenAt: new Date("2008-03-01T10:59:00Z"),
        amountInCurrencyBalance: "2.0002",
        currencyBalance: "USDT",
        amountInCurrencyPayment: "191.02",
        currencyPayment: "RUB",
        exchangeRate: "95.5",
      },
      {
        takenAt: new Date("2008-03-01T11:00:00Z"),
        amountInCurrencyBalance: "3",
        currencyBalance: "USDT",
        amountInCurrencyPayment: "286.5",
        currencyPayment: "RUB",
        exchangeRate: "95.5",
      },
    ],
  });
});

describe("chart queries", () => {
  it("sums daily volume exactly by type and status in the zone's days", async () => {
    const rows = await dailyVolume(range);
    expect(rows).toEqual([
      {
        day: "2008-03-01",
        typeOperation: "payIn",
        status: "failed",
        currency: "RUB",
        count: 1,
        amount: "1000000000000.0001",
      },
      {
        day: "2008-03-01",
        typeOperation: "payIn",
        status: "in_progress",
        currency: "RUB",
        count: 1,
        amount: "7",
      },
      {
        day: "2008-03-01",
        typeOperation: "payIn",
        status: "success",
        currency: "RUB",
        count: 2,
        amount: "0.3",
      },
      {
        day: "2008-03-01",
        typeOperation: "payOut",
        status: "success",
        currency: "RUB",
        count: 1,
        amount: "3",
      },
      {
        day: "2008-03-02",
        typeOperation: "payIn",
        status: "created",
        currency: "RUB",
        count: 1,
        amount: "1",
      },
    ]);
  });

  it("computes the success rate among final operations", async () => {
    expect(await successRate(range)).toEqual([
      { day: "2008-03-01", typeOperation: "payIn", succeeded: 2, finished: 3, rate: "66.67" },
      { day: "2008-03-01", typeOperation: "payOut", succeeded: 1, finished: 1, rate: "100.00" },
      { day: "2008-03-02", typeOperation: "payIn", succeeded: 0, finished: 0, rate: null },
    ]);
  });

  it("takes the median time to a final status from the history, else dateUpdated", async () => {
    // pay-ins: 60 s (history), 240 s, 600 s -> median 240 s
    expect(await medianTimeToFinal(range)).toEqual([
      { day: "2008-03-01", typeOperation: "payIn", count: 3, medianSeconds: "240.000" },
      { day: "2008-03-01", typeOperation: "payOut", count: 1, medianSeconds: "60.000" },
    ]);
  });

  it("keeps the last balance snapshot of each hour, exact", async () => {
    const points = await balanceHistory(range);
    expect(points.map((p) => [p.at, p.amountInCurrencyBalance])).toEqual([
      ["2008-03-01 13:00", "2.0002"],
      ["2008-03-01 14:00", "3"],
    ]);
  });
});
