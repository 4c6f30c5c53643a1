// The ledger is kept in the merchant's balance currency, and only in it: GET /balance is read for the
// record in that currency (a list is never read by its first record), a figure in another currency is
// neither compared with the ledger nor booked into it (a balance-difference drift item says so instead),
// and the ledger's sums count only movements outside operations in its currency. Payment currency and
// balance currency are never added together.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { getBalanceCached } from "@/lib/balance/cached";
import { getDb } from "@/lib/db";
import { dailyClosings, ledgerBalanceAt } from "@/lib/ledger/balance";
import { postingsPage } from "@/lib/ledger/postings";
import { settleComparisons } from "@/lib/ledger/proof";
import { statementSummary } from "@/lib/ledger/statement";
import { createPlatformClient } from "@/lib/platform/client";
import { isPlatformError } from "@/lib/platform/errors";
import { isolateDatabase } from "../../support/database";
import { insertOperations } from "../../support/mirror";

let restore: () => Promise<void>;
beforeAll(async () => {
  restore = await isolateDatabase();
});
afterAll(async () => restore());

const record = (amount: string, currencyBalance: string) => ({
  amountInCurrencyBalance: amount,
  currencyBalance,
  amountInCurrencyPayment: "9550",
  currencyPayment: "RUB",
  exchangeRate: currencyBalance === "RUB" ? "1" : "95.5",
});
const usdt = record("100", "USDT");
const rub = record("9550", "RUB");

/**
 * The real client over a platform that answers GET /balance with `data`; `balanceCurrency` is what
 * PLATFORM_BALANCE_CURRENCY gives it (lib/platform/from-env.ts).
 */
function platformAnswering(data: unknown, balanceCurrency?: string) {
  return createPlatformClient({
    baseUrl: "http://platform.test/api",
    token: "test-merchant-jwt-0000",
    balanceCurrency,
    fetch: (async () =>
      new Response(JSON.stringify({ status: "Success", data, traceID: crypto.randomUUID() }), {
        status: 200,
        headers: { "content-type": "application/json" },
      })) as typeof fetch,
  });
}

const db = () => getDb();
const DAY = { from: new Date("2030-01-10T00:00:00Z"), to: new Date("2030-01-11T00:00:00Z"), tz: "UTC" };
const at = (hhmm: string) => new Date(`2030-01-10T${hhmm}:00Z`);
const read = (data: unknown, when: Date, balanceCurrency?: string) =>
  getBalanceCached(platformAnswering(data, balanceCurrency), {}, () => when);
const refusal = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => e,
  );

async function emptyDatabase() {
  await db().outsideMovement.deleteMany();
  await db().driftItem.deleteMany();
  await db().balanceComparison.deleteMany();
  await db().balanceSnapshot.deleteMany();
}

beforeEach(async () => {
  await emptyDatabase();
});

beforeAll(async () => {
  // One successful pay-in at 10:00: the ledger's USDT balance is 100 from then on.
  await insertOperations([
    {
      dateAdded: at("09:59"),
      dateUpdated: at("10:00"),
      status: "success",
      amountInCurrencyBalance: "100",
      amountComissionInCurrencyBalance: "0",
    },
  ]);
});

describe("reading GET /balance", () => {
  it("keeps the record in the ledger's currency when the platform answers with several", async () => {
    await read(usdt, at("11:00"));
    const shown = await read([rub, usdt], at("12:00"));
    expect(shown).toMatchObject({ currencyBalance: "USDT", amountInCurrencyBalance: "100", fresh: true });
    const newest = await db().balanceSnapshot.findFirstOrThrow({ orderBy: { takenAt: "desc" } });
    expect(newest.currencyBalance).toBe("USDT");
  });

  it.each([
    ["before any balance was read", [], [rub, usdt], "2 balance records (RUB, USDT)"],
    [
      "with none in the ledger's currency",
      [usdt],
      [rub, record("1", "EUR")],
      "none in the balance currency USDT",
    ],
    [
      "with two in the ledger's currency",
      [usdt],
      [usdt, record("7", "USDT")],
      "2 in the balance currency USDT",
    ],
  ])("refuses an ambiguous list %s, and stores nothing", async (_case, before, answer, message) => {
    for (const [i, data] of before.entries()) await read(data, at(`11:0${i}`));
    const snapshots = await db().balanceSnapshot.count();
    const error = await refusal(read(answer, at("12:00")));
    expect(isPlatformError(error) && error.kind).toBe("protocol");
    expect(String(error)).toContain(message);
    expect(await db().balanceSnapshot.count()).toBe(snapshots);
  });
});

describe("the configured balance currency (PLATFORM_BALANCE_CURRENCY)", () => {
  it("chooses the record of a list read before any balance, and starts the ledger in it", async () => {
    const shown = await read([rub, usdt], at("12:00"), "USDT");
    expect(shown).toMatchObject({ currencyBalance: "USDT", amountInCurrencyBalance: "100", fresh: true });
    expect(await db().balanceSnapshot.findMany({ select: { currencyBalance: true } })).toEqual([
      { currencyBalance: "USDT" },
    ]);
    // The balance proof starts: compared in that currency, and the next list is read by the ledger's.
    expect(await db().balanceComparison.findMany({ select: { currency: true } })).toEqual([
      { currency: "USDT" },
    ]);
    expect(await read([usdt, rub], at("12:30"))).toMatchObject({ currencyBalance: "USDT", fresh: true });
  });

  it("unset, a list read before any balance is refused naming the variable, and nothing is stored", async () => {
    const error = await refusal(read([rub, usdt], at("12:00")));
    expect(isPlatformError(error) && error.kind).toBe("protocol");
    expect(String(error)).toContain("set PLATFORM_BALANCE_CURRENCY to choose");
    expect(await db().balanceSnapshot.count()).toBe(0);
  });

  it("refuses a list read before any balance with no record in it, naming where it came from", async () => {
    const error = await refusal(read([rub, usdt], at("12:00"), "EUR"));
    expect(isPlatformError(error) && error.kind).toBe("protocol");
    expect(String(error)).toContain("none in the balance currency EUR (PLATFORM_BALANCE_CURRENCY)");
    expect(await db().balanceSnapshot.count()).toBe(0);
  });

  it("gives way to the ledger's known currency when they differ: it only starts the ledger", async () => {
    await read(usdt, at("11:00"));
    expect(await read([rub, usdt], at("12:00"), "RUB")).toMatchObject({
      currencyBalance: "USDT",
      amountInCurrencyBalance: "100",
      fresh: true,
    });
    // A list without the ledger's currency is refused by it, not read in the configured one.
    const error = await refusal(read([rub, record("1", "EUR")], at("12:30"), "RUB"));
    expect(String(error)).toContain("none in the balance currency USDT");
    expect(String(error)).not.toContain("PLATFORM_BALANCE_CURRENCY");
    expect(
      (await db().balanceSnapshot.findMany({ select: { currencyBalance: true } })).map(
        (s) => s.currencyBalance,
      ),
    ).toEqual(["USDT", "USDT"]);
  });
});

describe("a figure in another currency than the ledger's", () => {
  it("is neither compared nor booked: a drift item says so, and the ledger stays in USDT", async () => {
    await read(usdt, at("11:00"));
    // The platform (or a deployment) answers with one record, in RUB; twice.
    expect(await read(rub, at("12:00"))).toMatchObject({ currencyBalance: "RUB", fresh: true });
    await read(rub, at("12:30"));
    expect(await db().balanceComparison.findMany({ select: { currency: true } })).toEqual([
      { currency: "USDT" },
    ]);
    expect(await settleComparisons(10, at("13:00"))).toBe(0);
    expect(await db().outsideMovement.count()).toBe(0);
    // One item while it lasts, naming the field that differs and both sides.
    const items = await db().driftItem.findMany();
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({
      kind: "balanceDifference",
      state: "open",
      currency: "RUB",
      fields: ["currencyBalance"],
      mirrorValue: { currencyBalance: "USDT" },
      platformValue: { currencyBalance: "RUB", amountInCurrencyBalance: "9550.0000" },
      differsSince: at("12:00"),
    });
    expect((await ledgerBalanceAt(at("13:00"))).available.toFixed(4)).toBe("100.0000");
    const summary = await statementSummary(DAY);
    expect(summary.currency).toBe("USDT");
    expect(summary.closing.available).toBe("100.0000");
  });

  it("stored before (an old comparison in RUB) is settled without booking anything", async () => {
    await read(usdt, at("11:00"));
    const snapshot = await db().balanceSnapshot.create({
      data: {
        takenAt: at("10:30"),
        amountInCurrencyBalance: "9550",
        currencyBalance: "RUB",
        amountInCurrencyPayment: "9550",
        currencyPayment: "RUB",
        exchangeRate: "1",
      },
    });
    await db().balanceComparison.create({
      data: {
        snapshotId: snapshot.id,
        requestedAt: at("10:30"),
        takenAt: at("10:30"),
        currency: "RUB",
        platformBalance: "9550",
        ledgerBalance: "100",
        difference: "9450",
      },
    });
    expect(await settleComparisons(10, at("13:00"))).toBe(0);
    expect(await db().outsideMovement.count()).toBe(0);
    expect(await db().balanceComparison.count({ where: { settledAt: null } })).toBe(0);
    expect(await db().driftItem.findMany({ select: { currency: true, fields: true } })).toEqual([
      { currency: "RUB", fields: ["currencyBalance"] },
    ]);
  });

  it("a later difference in the ledger's currency opens an item of its own, not the currency's", async () => {
    await read(usdt, at("11:00"));
    await read(rub, at("11:30"));
    await read(record("105", "USDT"), at("12:00"));
    expect(await settleComparisons(10, at("13:00"))).toBe(1);
    const items = await db().driftItem.findMany({ orderBy: { createdAt: "asc" } });
    expect(items.map((i) => [i.currency, i.fields, i.amount?.toFixed(4)])).toEqual([
      ["RUB", ["currencyBalance"], "9550.0000"],
      ["USDT", [], "5.0000"],
    ]);
  });
});

describe("the ledger's sums", () => {
  it("count only the movements outside operations in the ledger's currency", async () => {
    await read(usdt, at("11:00"));
    // Booked before the proof refused other currencies: 5 USDT and 9450 RUB.
    await db().outsideMovement.createMany({
      data: [
        { windowTo: at("11:30"), amount: "5", currency: "USDT" },
        { windowTo: at("11:45"), amount: "9450", currency: "RUB" },
      ],
    });
    expect((await ledgerBalanceAt(at("13:00"))).available.toFixed(4)).toBe("105.0000");
    expect((await dailyClosings(DAY)).map((c) => c.available)).toEqual(["105.0000"]);
    const summary = await statementSummary(DAY);
    expect(summary).toMatchObject({
      currency: "USDT",
      closing: { available: "105.0000" },
      totals: { outside: "5.0000" },
      check: { ok: true },
    });
    const lines = await postingsPage(DAY, null);
    expect(lines.rows.map((l) => [l.kind, l.amount, l.balance])).toEqual([
      ["payInCredit", "100.0000", "100.0000"],
      ["outside", "5.0000", "105.0000"],
    ]);
  });
});
