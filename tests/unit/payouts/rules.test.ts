// The pure pay-out rules as tables: approvals needed, balance sufficiency, the duplicate message, the
// request sent to the platform, platform refusals in words, the state machine, card and phone checks.
import { describe, expect, test } from "vitest";
import {
  explainPlatformRefusal as explainIn,
  fieldFromMessage,
  type PlatformRefusal,
} from "@/lib/payouts/errors";
import { luhnValid } from "@/lib/payouts/luhn";
import { normaliseRuPhone } from "@/lib/payouts/phone";
import { checkBalance } from "@/lib/payouts/balance-check";
import { describeDuplicates, type Duplicate } from "@/lib/payouts/duplicates";
import { PAYOUT_METHOD_CHOICES } from "@/lib/payouts/method-choices";
import { newMerchantId } from "@/lib/payouts/requests";
import {
  CANCELLABLE,
  IllegalTransitionError,
  OPEN_STATUSES,
  PAYOUT_STATUSES,
  TRANSITIONS,
  assertMove,
  isFinalPayoutStatus,
} from "@/lib/payouts/state";
import { requiredApprovalsFor } from "@/lib/payouts/policy";
import { creationFor } from "@/lib/payouts/submit";
import { payoutWordsIn, platformWordsIn } from "../../support/i18n";

/** The explanation as an English reader gets it. */
const explainPlatformRefusal = (refusal: PlatformRefusal) => explainIn(refusal, platformWordsIn("en"));

const NB = "\u00a0";

describe("approvals needed", () => {
  test.each([
    // amount, autoApproveBelow, twoApprovalsAbove, approvals
    ["99.9999", "100", null, 0],
    ["100", "100", null, 1],
    ["100.0001", "100", null, 1],
    ["0.0001", "0.0002", null, 0],
    ["10000", null, "10000", 1],
    ["10000.0001", null, "10000", 2],
    ["9999.9999", null, "10000", 1],
    ["5", " 100 ", null, 0], // thresholds are trimmed
    ["50000", null, " 10000\n", 2],
    ["5", "", null, 1], // empty: no rule
    ["5", "1e3", null, 1], // malformed: no rule
    ["50000", null, "ten thousand", 1],
    ["5", "100", "1", 0], // below auto wins over above two
    ["100", "100.0000", "100.0000", 1],
  ] as const)("%s with auto-approve below %j and two above %j -> %i", (amount, auto, two, expected) => {
    expect(requiredApprovalsFor(amount, { autoApproveBelow: auto, twoApprovalsAbove: two })).toBe(expected);
  });
});

describe("balance sufficiency", () => {
  const balance = {
    amountInCurrencyBalance: "100",
    currencyBalance: "USDT",
    currencyPayment: "RUB",
    exchangeRate: "95.5",
    traceID: "trace-b",
  };

  test("the whole answer: the balance as read, the converted amount, sufficiency", () => {
    expect(checkBalance("9550", balance)).toEqual({
      amountInCurrencyBalance: "100",
      currencyBalance: "USDT",
      currencyPayment: "RUB",
      exchangeRate: "95.5",
      traceID: "trace-b",
      amountInBalanceCurrency: "100",
      sufficient: true,
    });
  });

  test.each([
    ["9549.99", true],
    ["9550", true], // exactly the balance is enough
    ["9550.0001", false],
  ])("%s RUB against 100 USDT at 95.5 -> sufficient %s", (amount, sufficient) => {
    expect(checkBalance(amount, balance).sufficient).toBe(sufficient);
  });

  test.each(["0", "-1"])("a rate of %s is unknown: no conversion, sufficiency unknown", (rate) => {
    expect(checkBalance("1", { ...balance, exchangeRate: rate })).toMatchObject({
      amountInBalanceCurrency: null,
      sufficient: null,
    });
  });
});

describe("the duplicate guard's message", () => {
  const request = (status: Extract<Duplicate, { kind: "request" }>["status"]): Duplicate => ({
    kind: "request",
    payoutRequestId: "r",
    status,
    idTransactionMerchant: "po-x",
  });
  const operation = (status: string): Duplicate => ({
    kind: "operation",
    operationId: "o",
    status,
    payoutRequestId: "r",
  });
  const tail = " A second one could pay twice. An admin can override this with a reason.";

  test.each([
    [
      [request("awaiting_approval")],
      "a pay-out request to this recipient for this amount is already awaiting approval.",
    ],
    [[request("submitting")], "a pay-out request to this recipient for this amount is already submitting."],
    [
      [operation("pending_retry")],
      "a pay-out to this recipient for this amount is waiting for the platform's retry (pending_retry) on the platform.",
    ],
    [
      [operation("in_progress")],
      "a pay-out to this recipient for this amount is in progress on the platform.",
    ],
    // an operation on the platform weighs more than a request not sent, whatever the order
    [
      [request("approved"), operation("in_progress")],
      "a pay-out to this recipient for this amount is in progress on the platform.",
    ],
    [
      [request("approved"), request("awaiting_approval")],
      "a pay-out request to this recipient for this amount is already approved.",
    ],
  ] as const)("%j", (duplicates, what) => {
    expect(describeDuplicates([...duplicates], payoutWordsIn("en"))).toBe(`Blocked: ${what}${tail}`);
  });

  test("nothing duplicated: no message", () => {
    expect(describeDuplicates([], payoutWordsIn("en"))).toBe("");
  });
});

describe("the request as sent to the platform", () => {
  const row = {
    id: "r1",
    idTransactionMerchant: "po-00000000-0000-4000-8000-000000000001",
    paymentMethod: "toCard",
    bankName: "Сбербанк",
    recipientNumber: "2200700012345678",
    recipientName: "Ivan Petrov",
    amount: { toFixed: () => "1500.25" },
    clientID: "client-1",
    clientIP: "85.143.12.7",
    clientDateCreated: new Date("2023-04-17T00:00:00.000Z"),
    webhookUrl: null as string | null,
    makerId: "m1",
  };

  test("every field, under the platform's names; no webhook block without a URL", () => {
    expect(creationFor(row)).toEqual({
      kind: "payOut",
      request: {
        paymentMethod: "toCard",
        idTransactionMerchant: "po-00000000-0000-4000-8000-000000000001",
        amount: "1500.25",
        clientID: "client-1",
        clientIP: "85.143.12.7",
        clientDateCreated: "2023-04-17T00:00:00.000Z",
        number: "2200700012345678",
        bankName: "Сбербанк",
        nameMediator: "Ivan Petrov",
      },
    });
  });

  test("a webhook URL goes in the spec's (misspelt) integrationMerhcnatData.webHook", () => {
    expect(creationFor({ ...row, webhookUrl: "https://merchant.example/hook" }).request).toMatchObject({
      integrationMerhcnatData: { webHook: "https://merchant.example/hook" },
    });
  });
});

describe("small pieces", () => {
  test("merchant ids are po- and a fresh UUID", () => {
    const a = newMerchantId();
    expect(a).toMatch(/^po-[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(newMerchantId()).not.toBe(a);
  });

  test("the methods the form offers: the three RUB methods first, then the mono-bank pairs", () => {
    expect(PAYOUT_METHOD_CHOICES.slice(0, 3)).toEqual(["toCard", "sbp", "toAccount"]);
    expect(PAYOUT_METHOD_CHOICES).toContain("sber_sber");
    expect(new Set(PAYOUT_METHOD_CHOICES).size).toBe(PAYOUT_METHOD_CHOICES.length);
  });
});

describe("platform refusals in words", () => {
  const base = { traceID: "trace-9", message: null, paymentMethod: null };

  test.each([
    ["notEnoughMoneyOnBalance", "notEnoughMoneyOnBalance"],
    ["fraud", "fraud"],
    ["noSuitableTariffForRequest", "noSuitableTariffForRequest"],
    ["invalidRequestParameters", "invalidRequestParameters"],
    ["duplicateIdentifier", "duplicateIdentifier"],
    ["noPaymentDetailsAvailable", "noPaymentDetailsAvailable"],
    ["internalError", "internalError"],
    ["somethingNew", "unknown"],
  ])("codeError %s -> code %s, codeError and traceID kept", (codeError, code) => {
    expect(explainPlatformRefusal({ ...base, codeError })).toMatchObject({
      code,
      codeError,
      traceID: "trace-9",
    });
  });

  test.each([
    [
      "auth",
      "auth",
      "The platform refused Paydesk's credentials (token). Tell an admin; nothing was created.",
    ],
    [
      "transport",
      "unavailable",
      "The platform could not be reached or its answer could not be read. Try again in a moment.",
    ],
    [
      "timeout",
      "unavailable",
      "The platform could not be reached or its answer could not be read. Try again in a moment.",
    ],
    [
      "protocol",
      "unavailable",
      "The platform could not be reached or its answer could not be read. Try again in a moment.",
    ],
    ["business", "unknown", "The platform refused the pay-out."],
    [null, "unknown", "The platform refused the pay-out."],
  ] as const)("no code, kind %s -> %s", (kind, code, message) => {
    expect(explainPlatformRefusal({ ...base, codeError: null, kind })).toEqual({
      code,
      codeError: null,
      traceID: "trace-9",
      message,
      platformMessage: null,
    });
  });

  // internalError is both the spec's code for a refused token (status AuthError) and the platform's
  // generic failure (Warning): the kind tells them apart; a code otherwise wins over the kind
  test("a refused token is told by its kind, not by internalError", () => {
    expect(explainPlatformRefusal({ ...base, codeError: "fraud", kind: "auth" }).code).toBe("auth");
    expect(explainPlatformRefusal({ ...base, codeError: "internalError", kind: "auth" }).message).toBe(
      "The platform refused Paydesk's credentials (token). Tell an admin; nothing was created.",
    );
    expect(explainPlatformRefusal({ ...base, codeError: "internalError", kind: "business" }).code).toBe(
      "internalError",
    );
    expect(explainPlatformRefusal({ ...base, codeError: "fraud", kind: "business" }).code).toBe("fraud");
  });

  test("notEnoughMoneyOnBalance: both amounts when the message has them, else in general words", () => {
    expect(
      explainPlatformRefusal({
        ...base,
        codeError: "notEnoughMoneyOnBalance",
        message: "Not enough money: required 157.5 USDT, available 20 USDT",
      }).message,
    ).toBe(
      `The balance is too low for this pay-out: it needs 157.50${NB}USDT, the balance has 20.00${NB}USDT. Top up the balance or lower the amount.`,
    );
    expect(
      explainPlatformRefusal({ ...base, codeError: "notEnoughMoneyOnBalance", message: "required 5" })
        .message,
    ).toBe(
      "The balance is too low for this pay-out: it needs 5.00, the balance has unknown. Top up the balance or lower the amount.",
    );
    expect(
      explainPlatformRefusal({ ...base, codeError: "notEnoughMoneyOnBalance", message: "no money" }).message,
    ).toBe("The balance is too low for this pay-out (amount plus commission).");
  });

  test("noSuitableTariffForRequest names the method when known", () => {
    expect(
      explainPlatformRefusal({ ...base, codeError: "noSuitableTariffForRequest", paymentMethod: "psb_psb" })
        .message,
    ).toBe(
      "The payment method psb_psb is not in the merchant's tariff. Choose another method, or ask the account manager to add it.",
    );
    expect(explainPlatformRefusal({ ...base, codeError: "noSuitableTariffForRequest" }).message).toBe(
      "This payment method is not in the merchant's tariff. Choose another method, or ask the account manager to add it.",
    );
  });

  test("invalidRequestParameters: the field in our words, the platform's words beside them unchanged", () => {
    expect(
      explainPlatformRefusal({
        ...base,
        codeError: "invalidRequestParameters",
        message: "Field 'number': must be 16-19 digits",
      }),
    ).toMatchObject({
      message: "The platform refused the request as malformed: field number.",
      platformMessage: "Field 'number': must be 16-19 digits",
    });
    expect(explainPlatformRefusal({ ...base, codeError: "invalidRequestParameters" })).toMatchObject({
      message: "The platform refused the request as malformed.",
      platformMessage: null,
    });
    const long = `bad ${"x".repeat(1400)}`;
    const explained = explainPlatformRefusal({
      ...base,
      codeError: "invalidRequestParameters",
      message: long,
    });
    expect(explained.message).toBe("The platform refused the request as malformed.");
    expect(explained.platformMessage).toBe(long.slice(0, 1000));
  });

  test("the nested dialect's coarse validationError reads as a malformed request", () => {
    expect(
      explainPlatformRefusal({
        ...base,
        codeError: null,
        codeErrorClass: "validationError",
        kind: "business",
      }),
    ).toMatchObject({
      code: "invalidRequestParameters",
      message: "The platform refused the request as malformed.",
    });
    expect(explainPlatformRefusal({ ...base, codeError: "validationError" }).code).toBe(
      "invalidRequestParameters",
    );
  });

  test.each([
    [
      "duplicateIdentifier",
      "The platform already has an operation with this idTransactionMerchant; no new operation was created.",
    ],
    [
      "noPaymentDetailsAvailable",
      "The platform has no free details for this method right now. Try again later or another method.",
    ],
    ["somethingNew", "The platform refused the pay-out (code somethingNew)."],
  ])("%s in words", (codeError, message) => {
    expect(explainPlatformRefusal({ ...base, codeError }).message).toBe(message);
  });

  test("fraud in words", () => {
    expect(explainPlatformRefusal({ ...base, codeError: "fraud" }).message).toMatch(
      /^The platform's anti-fraud check refused the pay-out: .*do not retry at once\.$/,
    );
  });
});

describe("the field an invalidRequestParameters message names", () => {
  test.each([
    ["Field 'amount': too many decimals", "amount"],
    ["field number is invalid", "number"],
    ["The field bankName is required", "bankName"],
    ["FIELD «clientIP» bad", "clientIP"],
    ["Field `integrationMerhcnatData.webHook` bad", "integrationMerhcnatData.webHook"],
    ["'clientID' must not be empty", "clientID"],
    ["something went wrong", null],
    ["", null],
    [null, null],
  ])("%j -> %j", (message, field) => {
    expect(fieldFromMessage(message)).toBe(field);
  });
});

describe("the request state machine", () => {
  test("every status, with a name in both languages", () => {
    expect([...PAYOUT_STATUSES]).toEqual([
      "draft",
      "awaiting_approval",
      "approved",
      "submitting",
      "submitted",
      "rejected",
      "cancelled",
      "failed_to_submit",
    ]);
    expect(PAYOUT_STATUSES.map((s) => payoutWordsIn("en").t(`statuses.${s}`))).toEqual([
      "draft",
      "awaiting approval",
      "approved",
      "submitting",
      "submitted",
      "rejected",
      "cancelled",
      "failed to submit",
    ]);
    expect(PAYOUT_STATUSES.map((s) => payoutWordsIn("ru").t(`statuses.${s}`))).toEqual([
      "черновик",
      "ждёт согласования",
      "согласована",
      "отправляется",
      "отправлена",
      "отклонена",
      "отменена",
      "не принята платформой",
    ]);
  });

  test("the moves, written out", () => {
    expect(TRANSITIONS).toEqual({
      draft: ["awaiting_approval", "approved", "cancelled"],
      awaiting_approval: ["approved", "rejected", "cancelled"],
      approved: ["submitting", "cancelled"],
      submitting: ["submitted", "failed_to_submit"],
      submitted: [],
      rejected: [],
      cancelled: [],
      failed_to_submit: [],
    });
  });

  test("cancellable, open and final statuses", () => {
    expect([...CANCELLABLE]).toEqual(["draft", "awaiting_approval", "approved"]);
    expect([...OPEN_STATUSES]).toEqual(["awaiting_approval", "approved", "submitting"]);
    expect(PAYOUT_STATUSES.filter(isFinalPayoutStatus)).toEqual([
      "submitted",
      "rejected",
      "cancelled",
      "failed_to_submit",
    ]);
  });

  test("assertMove lets a legal move pass and names an illegal one", () => {
    expect(() => assertMove("approved", "submitting")).not.toThrow();
    expect(() => assertMove("submitted", "cancelled")).toThrow(IllegalTransitionError);
    try {
      assertMove("rejected", "approved");
      expect.unreachable();
    } catch (e) {
      expect(e).toMatchObject({
        name: "IllegalTransitionError",
        from: "rejected",
        to: "approved",
        message: "A pay-out request cannot move from rejected to approved.",
      });
    }
  });
});

describe("card numbers (Luhn)", () => {
  test.each([
    ["4276000000000001", false],
    ["4111111111111111", true],
    ["2200700012345670", false],
    ["79927398713", true],
    ["79927398710", false],
    ["0", true],
    ["18", true],
    ["59", true], // 5*2 = 10 -> 1
    ["", false],
    ["4111 1111 1111 1111", false],
    ["411111111111111a", false],
  ])("%j -> %s", (digits, valid) => {
    expect(luhnValid(digits)).toBe(valid);
  });
});

describe("Russian mobile numbers", () => {
  test.each([
    ["+7 (912) 345-67-89", "+79123456789"],
    ["79123456789", "+79123456789"],
    ["89123456789", "+79123456789"],
    ["  8.912.345.67.89 ", "+79123456789"],
    ["+89123456789", null], // a plus needs the country code 7
    ["+19123456789", null],
    ["69123456789", null],
    ["9123456789", null],
    ["+791234567890", null],
    ["+7 912 abc 67 89", null],
    ["", null],
  ])("%j -> %j", (input, expected) => {
    expect(normaliseRuPhone(input)).toBe(expected);
  });
});
