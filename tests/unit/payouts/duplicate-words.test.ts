// The duplicate guard's message for near-duplicates (describeDuplicates) and the order in which the
// kinds weigh, in English and Russian; checkBalance at its edges.
import { describe, expect, it } from "vitest";
import { checkBalance } from "@/lib/payouts/balance-check";
import { describeDuplicates, type Duplicate } from "@/lib/payouts/duplicates";
import { payoutWordsIn } from "../../support/i18n";

const NB = "\u00a0";
const near: Duplicate = {
  kind: "near",
  payoutRequestId: "n1",
  status: "awaiting_approval",
  amount: "4950.5",
  createdAt: "2026-11-20T10:00:00.000Z",
  tolerancePercent: "1",
};
const request: Duplicate = {
  kind: "request",
  payoutRequestId: "r1",
  status: "approved",
  idTransactionMerchant: "po-1",
};

describe("near-duplicates in words", () => {
  it("the earlier amount for the reader, the tolerance, the window, the status; the splitting risk", () => {
    expect(describeDuplicates([near], payoutWordsIn("en"))).toBe(
      `Blocked: a pay-out of 4,950.50 to this recipient (within 1 % of this amount), open or sent in the last 24 h, is awaiting approval. ` +
        "Split or repeated pay-outs could pay twice or pass under the approval limit. An admin can override this with a reason.",
    );
    const ru = describeDuplicates([near], payoutWordsIn("ru"));
    expect(ru).toContain(`4${NB}950,50`);
    expect(ru).toContain("ждёт согласования");
  });

  it("an exact duplicate weighs more than a near one, whatever the order", () => {
    expect(describeDuplicates([near, request], payoutWordsIn("en"))).toBe(
      "Blocked: a pay-out request to this recipient for this amount is already approved. A second one could pay twice. " +
        "An admin can override this with a reason.",
    );
  });
});

describe("checkBalance edges", () => {
  const balance = {
    amountInCurrencyBalance: "0",
    currencyBalance: "USDT",
    currencyPayment: "RUB",
    exchangeRate: "95.5",
    traceID: null,
  };

  it("an empty balance: any amount is too much, none is enough", () => {
    expect(checkBalance("0.01", balance)).toMatchObject({ sufficient: false, traceID: null });
    expect(checkBalance("0", balance)).toMatchObject({ sufficient: true, amountInBalanceCurrency: "0" });
  });

  it("the conversion keeps 40 significant digits (not rounded to cents)", () => {
    expect(checkBalance("1", { ...balance, amountInCurrencyBalance: "1", exchangeRate: "3" })).toMatchObject({
      amountInBalanceCurrency: "0.3333333333333333333333333333333333333333",
      sufficient: true,
    });
  });
});
