import { describe, expect, test } from "vitest";
import { checkAmountText, computeAmounts } from "../../../sandbox/money";
import { computeAmountsScaled } from "../../../sandbox/money-scaled";
import { createRng } from "../../../sandbox/random";

describe("Resources › Operation rule 3 and Limits: amount precision", () => {
  test.each([
    ["5000", "5000"],
    ["62.50", "62.5"],
    ["1.875", "1.875"],
    ["80.00", "80"],
    ["0.0001", "0.0001"],
    ["987654321098765.4321", "987654321098765.4321"],
  ])("accepts %s as %s", (text, canonical) => {
    expect(checkAmountText(text)).toEqual({ ok: true, value: canonical });
  });

  test.each(["1e3", "1E-2", "-5", "0", "0.00", "1.23456", "01", ".5", "5."])("refuses %s", (text) => {
    expect(checkAmountText(text).ok).toBe(false);
  });
});

describe("Amounts: commission and conversion, Decimal and scaled BigInt agree", () => {
  test("on 20,000 random amounts, commissions and rates", () => {
    const rng = createRng(99);
    for (let index = 0; index < 20_000; index++) {
      const amount =
        `${Math.floor(rng() * 10_000_000)}.${String(Math.floor(rng() * 10_000)).padStart(4, "0")}`.replace(
          /\.?0+$/,
          "",
        ) || "1";
      const percent = `${Math.floor(rng() * 10)}.${Math.floor(rng() * 100)}`;
      const rate = `${1 + Math.floor(rng() * 600)}.${String(Math.floor(rng() * 100)).padStart(2, "0")}`;
      expect(computeAmountsScaled(amount, percent, rate)).toEqual(computeAmounts(amount, percent, rate));
    }
  });

  test.each([
    [
      "5000",
      "3",
      "95.5",
      {
        amountComission: "150",
        amountInCurrencyBalance: "52.356",
        amountComissionInCurrencyBalance: "1.5707",
        exchangeRate: "95.5",
      },
    ],
    [
      "0.05",
      "0.5",
      "1",
      {
        amountComission: "0.0002",
        amountInCurrencyBalance: "0.05",
        amountComissionInCurrencyBalance: "0.0002",
        exchangeRate: "1",
      },
    ],
    [
      "0.07",
      "0.5",
      "1",
      {
        amountComission: "0.0004",
        amountInCurrencyBalance: "0.07",
        amountComissionInCurrencyBalance: "0.0004",
        exchangeRate: "1",
      },
    ],
  ])("%s at %s %% and rate %s (ROUND_HALF_EVEN)", (amount, percent, rate, expected) => {
    expect(computeAmounts(amount, percent, rate)).toEqual(expected);
    expect(computeAmountsScaled(amount, percent, rate)).toEqual(expected);
  });
});
