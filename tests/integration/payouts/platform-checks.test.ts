// The pay-out form checked with the platform before review and creation (lib/payouts/platform-checks.ts):
// the webhook URL first (a refused one asks the platform nothing), the bank directory, the tariff as far
// as known, the balance; the platform unreachable is a refusal with its traceID, never a pass. A fake
// platform records what was asked; a database of its own (the directory and balance caches are global).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { Decimal } from "@/lib/money/decimal";
import { balanceFor, checkWithPlatform } from "@/lib/payouts/platform-checks";
import type { PayoutForm } from "@/lib/payouts/schemas";
import { PlatformError } from "@/lib/platform/errors";
import { isolateDatabase } from "../../support/database";
import { createStaff } from "../../support/mirror";
import { storedPayoutRequest } from "../../support/payouts";

const UNREACHABLE =
  "The platform could not be reached or its answer could not be read. Try again in a moment.";
const CHECK_FIELDS = "Check the highlighted fields.";

const asked: string[] = [];
const contexts: unknown[] = [];
let banksFail = false;
let balanceFails = false;
const transport = (path: string) =>
  new PlatformError({
    kind: "transport",
    method: "GET",
    path,
    description: "down",
    traceID: `trace-${path}`,
  });

const fakePlatform = {
  getBanks: async (context?: unknown) => {
    asked.push("banks");
    contexts.push(context);
    if (banksFail) throw transport("banks");
    return {
      banks: [
        { name: "Сбербанк", id: "sber" },
        { name: "Тинькофф", id: "tinkoff" },
      ],
      traceID: "trace-banks-ok",
    };
  },
  getBalance: async (context?: unknown) => {
    asked.push("balance");
    contexts.push(context);
    if (balanceFails) throw transport("balance");
    const record = {
      amountInCurrencyBalance: new Decimal("100"),
      currencyBalance: "USDT",
      amountInCurrencyPayment: new Decimal("9550"),
      currencyPayment: "RUB",
      exchangeRate: new Decimal("95.5"),
    };
    return { balance: record, balances: [record], traceID: "trace-balance-ok" };
  },
};

const form = (overrides: Partial<PayoutForm> = {}): PayoutForm =>
  ({
    paymentMethod: "toCard",
    bankName: "Сбербанк",
    recipientNumber: "2200700012345675",
    recipientName: "Ivan Petrov",
    amount: "100",
    clientID: "client-1",
    clientIP: "85.143.12.7",
    clientDateCreated: "2023-04-17T00:00:00.000Z",
    webhookUrl: undefined,
    overrideReason: undefined,
    idTransactionMerchant: undefined,
    ...overrides,
  }) as PayoutForm;

let restore: () => Promise<void>;
let userId = "";
const holder = globalThis as { paydeskPlatform?: unknown };
let previousPlatform: unknown;

beforeAll(async () => {
  restore = await isolateDatabase();
  previousPlatform = holder.paydeskPlatform;
  holder.paydeskPlatform = fakePlatform;
  userId = (await createStaff("finance")).id;
});
afterAll(async () => {
  holder.paydeskPlatform = previousPlatform;
  await restore();
});
beforeEach(() => {
  asked.length = 0;
  contexts.length = 0;
  banksFail = false;
  balanceFails = false;
});

describe("the platform unreachable is a refusal with its traceID", () => {
  // First: nothing is cached yet, so both reads go to the platform.
  it("the bank directory", async () => {
    banksFail = true;
    expect(await checkWithPlatform(form(), userId)).toEqual({
      ok: false,
      code: "platform_unavailable",
      message: `The bank directory could not be read from the platform. ${UNREACHABLE}`,
      platformMessage: null,
      traceID: "trace-banks",
    });
    expect(asked).toEqual(["banks"]);
    expect(contexts).toEqual([{ actorUserId: userId }]); // the read is recorded in the user's name
  });

  it("the balance", async () => {
    balanceFails = true;
    expect(await balanceFor("100", userId)).toEqual({
      ok: false,
      code: "platform_unavailable",
      message: `The balance could not be read from the platform. ${UNREACHABLE}`,
      platformMessage: null,
      traceID: "trace-balance",
    });
    expect(contexts).toEqual([{ actorUserId: userId }]);
  });

  it("an error that is not the platform's is not turned into a refusal", async () => {
    holder.paydeskPlatform = {
      ...fakePlatform,
      getBalance: async () => {
        throw new TypeError("a bug");
      },
    };
    try {
      await expect(balanceFor("100", userId)).rejects.toThrow("a bug");
    } finally {
      holder.paydeskPlatform = fakePlatform;
    }
  });
});

describe("checkWithPlatform", () => {
  it("a valid form: no refusal", async () => {
    expect(await checkWithPlatform(form(), userId)).toBeNull();
    expect(await checkWithPlatform(form({ bankName: "Тинькофф", paymentMethod: "sbp" }), userId)).toBeNull();
  });

  it("a webhook URL to a private address is refused before the platform is asked anything", async () => {
    expect(await checkWithPlatform(form({ webhookUrl: "http://127.0.0.1/hook" }), userId)).toEqual({
      ok: false,
      code: "invalid",
      message: CHECK_FIELDS,
      fieldErrors: {
        webhookUrl: [
          "The webhook URL points to a local or private address (127.0.0.1) that the platform must not call. " +
            "Use a public address; an admin can allow private addresses in Settings.",
        ],
      },
    });
    expect(asked).toEqual([]);
  });

  it("a public webhook URL passes", async () => {
    expect(await checkWithPlatform(form({ webhookUrl: "https://merchant.example/hook" }), userId)).toBeNull();
  });

  it("a bank not in the directory (names compared exactly)", async () => {
    expect(await checkWithPlatform(form({ bankName: "сбербанк" }), userId)).toEqual({
      ok: false,
      code: "invalid",
      message: CHECK_FIELDS,
      fieldErrors: {
        bankName: [
          "“сбербанк” is not in the platform's bank directory. Choose the bank from the list (canonical names only).",
        ],
      },
    });
  });

  it("a long bank name is shown cut at 60 characters", async () => {
    const sixty = "Б".repeat(60);
    const refusal = await checkWithPlatform(form({ bankName: `${sixty}X` }), userId);
    expect(refusal?.fieldErrors?.bankName).toEqual([
      `“${sixty}…” is not in the platform's bank directory. Choose the bank from the list (canonical names only).`,
    ]);
    const exactly = await checkWithPlatform(form({ bankName: sixty }), userId);
    expect(exactly?.fieldErrors?.bankName).toEqual([
      `“${sixty}” is not in the platform's bank directory. Choose the bank from the list (canonical names only).`,
    ]);
  });

  it("a method the form does not offer", async () => {
    expect(await checkWithPlatform(form({ paymentMethod: "foo_bar" as never }), userId)).toEqual({
      ok: false,
      code: "invalid",
      message: CHECK_FIELDS,
      fieldErrors: {
        paymentMethod: ["foo_bar is not offered for pay-outs here; choose a method from the list."],
      },
    });
  });

  it("a method the platform refused as outside the tariff names the day it did; both problems at once", async () => {
    const maker = await createStaff("finance");
    const refused = await storedPayoutRequest(maker.id, {
      status: "failed_to_submit",
      paymentMethod: "toAccount",
      recipientNumber: "40817810099910004312",
      amount: "10",
      lastCodeError: "noSuitableTariffForRequest",
    });
    const day = refused.updatedAt.toISOString().slice(0, 10);
    expect(
      await checkWithPlatform(form({ paymentMethod: "toAccount", bankName: "Nowhere Bank" }), userId),
    ).toEqual({
      ok: false,
      code: "invalid",
      message: CHECK_FIELDS,
      fieldErrors: {
        bankName: [
          "“Nowhere Bank” is not in the platform's bank directory. Choose the bank from the list (canonical names only).",
        ],
        paymentMethod: [`toAccount is not in the merchant's tariff (the platform refused it on ${day}).`],
      },
    });
    // another method the form does not offer is still "not offered", not the refused one's words
    expect(
      (await checkWithPlatform(form({ paymentMethod: "foo_bar" as never }), userId))?.fieldErrors
        ?.paymentMethod,
    ).toEqual(["foo_bar is not offered for pay-outs here; choose a method from the list."]);
  });
});

describe("balanceFor", () => {
  it("the amount against the balance at the current rate", async () => {
    expect(await balanceFor("9550", userId)).toEqual({
      amountInCurrencyBalance: "100",
      currencyBalance: "USDT",
      currencyPayment: "RUB",
      exchangeRate: "95.5",
      traceID: "trace-balance-ok",
      amountInBalanceCurrency: "100",
      sufficient: true,
    });
    expect(await balanceFor("9550.01", userId)).toMatchObject({ sufficient: false });
  });
});
