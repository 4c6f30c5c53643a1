// The pay-out form's one schema: every bad input the issue lists, and the normalisation of good ones.
import { describe, expect, it, test } from "vitest";
import { explainPlatformRefusal, fieldFromMessage } from "@/lib/payouts/errors";
import { platformWordsIn, wordedErrors } from "../../support/i18n";
import { luhnValid } from "@/lib/payouts/luhn";
import { withCheckDigit } from "../../support/cards";
import { normaliseRuPhone } from "@/lib/payouts/phone";
import { requiredApprovalsFor } from "@/lib/payouts/policy";
import { checkBalance } from "@/lib/payouts/balance-check";
import { clientIpProblem, parseClientDateCreated } from "@/lib/anti-fraud/client-data";
import { decisionSchema, payoutFormSchema } from "@/lib/payouts/schemas";
import { payInRequestSchema } from "@/lib/platform/requests";
import { canMove, CANCELLABLE, isFinalPayoutStatus, PAYOUT_STATUSES, TRANSITIONS } from "@/lib/payouts/state";

const valid = {
  paymentMethod: "toCard",
  bankName: "Сбербанк",
  recipientNumber: "4276 3800 1234 5678".replace(/8$/, "5"),
  recipientName: "Ivan Petrov",
  amount: "1500.50",
  clientID: "client-7731",
  clientIP: "85.143.12.7",
  clientDateCreated: "2023-04-17",
  webhookUrl: "",
};

const card = (prefix = "220070001234567") => withCheckDigit(prefix);
const goodCard = card();
const base = { ...valid, recipientNumber: goodCard };

/** The field errors in words, as the server action words them for an English reader. */
function errorsOf(input: unknown, locale: "en" | "ru" = "en"): Record<string, string[] | undefined> {
  const r = payoutFormSchema.safeParse(input);
  return r.success ? {} : wordedErrors(r.error, locale);
}

const MB = "x".repeat(1024 * 1024);

describe("bad input is refused with a clear message on the field", () => {
  test.each([
    ["amount", "5 decimals", "1.23456", /At most 4 digits after the decimal point/],
    ["amount", "exponent 1e3", "1e3", /without an exponent/],
    ["amount", "negative", "-10", /greater than zero/],
    ["amount", "zero", "0.0000", /greater than zero/],
    ["amount", "empty", "", /Enter the amount/],
    ["amount", "both separators (1.500,50)", "1.500,50", /can be read two ways/],
    ["amount", "a comma before three digits (1,500)", "1,500", /can be read two ways/],
    ["amount", "a dot before three digits (1.500)", "1.500", /can be read two ways/],
    ["amount", "two dots", "1.500.000", /can be read two ways/],
    ["amount", "letters", "ten", /number such as/],
    ["amount", "Infinity", "Infinity", /number such as/],
    ["amount", "hex", "0x10", /number such as/],
    ["amount", "too large", "1234567890123456", /too large/],
    ["amount", "a number, not text", 1000, /must be text/],
    ["amount", "null", null, /Enter the amount/],
    ["amount", "1 MB", MB, /too long/],
    [
      "recipientNumber",
      "Luhn-invalid card",
      goodCard.replace(/\d$/, (d) => String((Number(d) + 1) % 10)),
      /Luhn/,
    ],
    ["recipientNumber", "card too short", "4276380012345", /16 to 19 digits/],
    ["recipientNumber", "card with letters", "4276abcd12345678", /digits only/],
    ["recipientNumber", "empty", "", /Enter the recipient's number/],
    ["recipientNumber", "1 MB", MB, /too long/],
    ["recipientNumber", "an array", ["4276"], /must be text/],
    ["recipientName", "null recipient name", null, /cannot be null; leave it empty/],
    ["recipientName", "missing recipient name", undefined, /send an empty text/],
    ["recipientName", "1 MB", MB, /too long/],
    ["recipientName", "an object", { first: "Ivan" }, /must be text/],
    ["recipientName", "control characters", "Ivan\u0000Petrov", /control characters/],
    ["bankName", "empty", "", /Choose the recipient's bank/],
    ["bankName", "1 MB", MB, /too long/],
    ["bankName", "a number", 7, /must be text/],
    ["paymentMethod", "pay-in only method", "nspk", /not available for pay-outs/],
    ["paymentMethod", "unknown method", "paypal", /Unknown payment method/],
    ["paymentMethod", "KZT method", "kzt_c2c", /not available for pay-outs/],
    ["paymentMethod", "empty", "", /Choose a payment method/],
    ["paymentMethod", "boolean", true, /must be text/],
    ["clientID", "placeholder test", "test", /placeholder/],
    ["clientID", "placeholder 0", "0", /placeholder/],
    ["clientID", "placeholder null", "null", /placeholder/],
    ["clientID", "placeholder undefined", "undefined", /placeholder/],
    ["clientID", "one repeated character", "aaaaaa", /placeholder/],
    ["clientID", "nil UUID", "00000000-0000-0000-0000-000000000000", /placeholder/],
    ["clientID", "random...", "random-1234", /placeholder/],
    ["clientID", "empty", "   ", /Enter the end client's id/],
    ["clientID", "1 MB", MB, /too long/],
    ["clientIP", "0.0.0.0", "0.0.0.0", /not a real address/],
    ["clientIP", "::", "::", /not a real address/],
    ["clientIP", "loopback", "127.0.0.1", /loopback/],
    ["clientIP", "IPv6 loopback", "::1", /loopback/],
    ["clientIP", "private 10/8", "10.1.2.3", /private network/],
    ["clientIP", "private 192.168", "192.168.0.10", /private network/],
    ["clientIP", "private 172.16/12", "172.20.1.1", /private network/],
    ["clientIP", "mapped private", "::ffff:192.168.1.1", /private network/],
    ["clientIP", "broadcast", "255.255.255.255", /broadcast/],
    ["clientIP", "documentation range", "203.0.113.7", /documentation/],
    ["clientIP", "IPv6 unique local", "fd00::1", /unique local/],
    ["clientIP", "not an address", "999.1.1.1", /IPv4 or IPv6/],
    ["clientIP", "zero-padded octet", "85.143.12.07", /leading zero \(07\)/],
    ["clientIP", "zero-padded octet in a mapped IPv6", "::ffff:85.143.012.7", /leading zero \(012\)/],
    ["clientIP", "hostname", "example.com", /IPv4 or IPv6/],
    ["clientDateCreated", "in the future", "2999-01-01", /in the future/],
    ["clientDateCreated", "placeholder epoch", "1970-01-01", /before 1990/],
    ["clientDateCreated", "unparsable", "yesterday", /Enter a date such as/],
    ["clientDateCreated", "impossible day", "2023-02-31", /Enter a date such as/],
    ["webhookUrl", "not a URL", "not a url", /http\(s\) URL/],
    ["webhookUrl", "ftp URL", "ftp://example.com/hook", /http\(s\) URL/],
    ["webhookUrl", "1 MB", `https://e.com/${MB}`, /too long/],
  ])("%s: %s", (field, _case, value, message) => {
    const errors = errorsOf({ ...base, [field]: value });
    expect(errors[field]?.join(" ")).toMatch(message);
  });

  it("a 1 MB field gets exactly one message: the length", () => {
    expect(errorsOf({ ...base, clientID: MB }).clientID).toEqual([
      "The client id is too long (at most 128 characters).",
    ]);
  });

  it("per-method recipient numbers: sbp wants a Russian phone, toAccount 20 digits", () => {
    expect(
      errorsOf({ ...base, paymentMethod: "sbp", recipientNumber: "+1 202 555 0100" }).recipientNumber?.[0],
    ).toMatch(/Russian phone number/);
    expect(
      errorsOf({ ...base, paymentMethod: "toAccount", recipientNumber: "4081781000000000000" })
        .recipientNumber?.[0],
    ).toMatch(/exactly 20 digits/);
    expect(
      errorsOf({ ...base, paymentMethod: "sber_sber", recipientNumber: "12345" }).recipientNumber?.[0],
    ).toMatch(/card number .* or a phone number/);
  });

  it("wrong types for the whole input", () => {
    for (const input of [null, "amount=5", 42, []])
      expect(payoutFormSchema.safeParse(input).success).toBe(false);
  });

  it("decisions need a comment", () => {
    const r = decisionSchema.safeParse({ id: "00000000-0000-4000-8000-000000000000", comment: "  " });
    expect(r.success).toBe(false);
  });
});

describe("good input is normalised", () => {
  it("card digits, amount, date, empty webhook and an empty recipient name", () => {
    const r = payoutFormSchema.parse({
      ...base,
      recipientNumber: `${goodCard.slice(0, 4)} ${goodCard.slice(4, 8)}-${goodCard.slice(8)}`,
      recipientName: "",
      amount: "0001500.5000",
      paymentMethod: "TOCARD",
    });
    expect(r).toMatchObject({
      paymentMethod: "toCard",
      recipientNumber: goodCard,
      recipientName: "",
      amount: "1500.5",
      clientDateCreated: "2023-04-17T00:00:00.000Z",
      webhookUrl: undefined,
    });
    expect(r.overrideReason).toBeUndefined();
  });

  test.each([
    ["+79123456789", "+79123456789"],
    ["89123456789", "+79123456789"],
    ["79123456789", "+79123456789"],
    ["+7 912 345-67-89", "+79123456789"],
    ["8 (912) 345-67-89", "+79123456789"],
  ])("sbp phone %s -> %s", (input, expected) => {
    expect(
      payoutFormSchema.parse({ ...base, paymentMethod: "sbp", recipientNumber: input }).recipientNumber,
    ).toBe(expected);
  });

  test.each([["+8 912 345 67 89"], ["9123456789"], ["+7912345678"], ["+791234567890"], ["+7 912 abc"]])(
    "not a Russian phone: %s",
    (input) => expect(normaliseRuPhone(input)).toBeNull(),
  );

  test.each([
    ["4276380012345678", false],
    ["4111111111111111", true],
    ["2200700012345678", luhnValid("2200700012345678")],
    ["79927398713", true],
    ["79927398710", false],
    ["", false],
    ["12a4", false],
  ])("Luhn %s -> %s", (digits, expected) => expect(luhnValid(digits)).toBe(expected));

  it("a toAccount number and a mono-bank phone", () => {
    expect(
      payoutFormSchema.parse({
        ...base,
        paymentMethod: "toAccount",
        recipientNumber: "40817 810 0000 0000 0001",
      }).recipientNumber,
    ).toBe("40817810000000000001");
    expect(
      payoutFormSchema.parse({ ...base, paymentMethod: "sber_sber", recipientNumber: "8 912 345 67 89" })
        .recipientNumber,
    ).toBe("+79123456789");
  });

  test.each([["85.143.12.7"], ["2a02:6b8::2:242"], ["5.255.255.70"]])("public IP %s is accepted", (ip) =>
    expect(clientIpProblem(ip)).toBeNull(),
  );

  // What the form lets through must pass the request schema too, or the intent is stored and then refused.
  test.each([
    ["85.143.12.07"],
    ["085.143.12.7"],
    ["85.143.00.7"],
    ["::ffff:85.143.12.07"],
    ["85.143.12.7"],
    ["85.143.0.7"],
    ["2a02:06b8::2:242"],
    ["2A02:6B8::2:242"],
    ["::ffff:85.143.12.7"],
    ["2a02:6b8:0:0:0:0:85.143.12.7"],
  ])("the form and the request schema agree on %s", (ip) => {
    const wire = payInRequestSchema.shape.clientIP.safeParse(ip).success;
    expect(clientIpProblem(ip) === null).toBe(wire);
  });

  it("dates: a date-time without offset is UTC; an offset is kept", () => {
    const a = parseClientDateCreated("2023-04-17T10:30");
    const b = parseClientDateCreated("2023-04-17T10:30:00+03:00");
    expect(a.ok && a.date.toISOString()).toBe("2023-04-17T10:30:00.000Z");
    expect(b.ok && b.date.toISOString()).toBe("2023-04-17T07:30:00.000Z");
  });
});

describe("amounts typed with either decimal separator", () => {
  test.each([
    ["1500,50", "1500.5"],
    ["1500.50", "1500.5"],
    ["1 500,50", "1500.5"],
    ["1\u00a0500.50", "1500.5"],
    ["10,5", "10.5"],
    ["0,0001", "0.0001"],
    ["1,5000", "1.5"],
    ["0,500", "0.5"],
    ["1500", "1500"],
  ])("%j is sent as %j", (typed, sent) => {
    expect(payoutFormSchema.parse({ ...base, amount: typed }).amount).toBe(sent);
  });

  test.each([
    ["1.500,50", "Сумму можно прочитать двояко"],
    ["1,500", "Сумму можно прочитать двояко"],
    ["1,23456", "Не больше 4 знаков после запятой"],
    ["-5", "Сумма должна быть больше нуля"],
    ["", "Введите сумму"],
  ])("%j is refused in Russian: %s", (typed, message) => {
    expect(errorsOf({ ...base, amount: typed }, "ru").amount?.join(" ")).toContain(message);
  });

  it("a Russian reader gets every field's message in Russian", () => {
    const errors = errorsOf(
      { ...base, recipientNumber: "4276abcd12345678", clientIP: "127.0.0.1", bankName: "" },
      "ru",
    );
    expect(errors.bankName).toEqual(["Выберите банк получателя."]);
    expect(errors.clientIP?.[0]).toMatch(/^127\.0\.0\.1 не может быть адресом конечного клиента/);
    expect(errorsOf({ ...base, recipientNumber: "4276380012345" }, "ru").recipientNumber).toEqual([
      "В номере карты от 16 до 19 цифр (здесь 13 цифр).",
    ]);
  });

  it("a card number with a 0 in front (it still passes Luhn) is refused in both languages", () => {
    for (const method of ["toCard", "sber_sber"]) {
      const input = { ...base, paymentMethod: method, recipientNumber: `0${goodCard}` };
      expect(errorsOf(input).recipientNumber).toEqual([
        "A card number never starts with 0: check its first digits.",
      ]);
      expect(errorsOf(input, "ru").recipientNumber).toEqual([
        "Номер карты не может начинаться с 0: проверьте первые цифры.",
      ]);
    }
  });

  test.each(["01,500", "00001,500", "01.500", "00,500", "0 001,500"])(
    "%j is refused as ambiguous, like 1,500, in both languages",
    (typed) => {
      expect(errorsOf({ ...base, amount: typed }).amount?.join(" ")).toMatch(/can be read two ways/);
      expect(errorsOf({ ...base, amount: typed }, "ru").amount?.join(" ")).toContain(
        "Сумму можно прочитать двояко",
      );
    },
  );
});

describe("the request state machine", () => {
  it("allows exactly the documented moves", () => {
    const allowed = PAYOUT_STATUSES.flatMap((from) =>
      PAYOUT_STATUSES.filter((to) => canMove(from, to)).map((to) => `${from}->${to}`),
    );
    expect(allowed.sort()).toEqual(
      [
        "draft->awaiting_approval",
        "draft->approved",
        "draft->cancelled",
        "awaiting_approval->approved",
        "awaiting_approval->rejected",
        "awaiting_approval->cancelled",
        "approved->submitting",
        "approved->cancelled",
        "submitting->submitted",
        "submitting->failed_to_submit",
      ].sort(),
    );
  });
  it("final statuses never move; nothing sent can be cancelled", () => {
    for (const s of ["submitted", "rejected", "cancelled", "failed_to_submit"] as const) {
      expect(isFinalPayoutStatus(s)).toBe(true);
      expect(TRANSITIONS[s]).toEqual([]);
    }
    expect([...CANCELLABLE].sort()).toEqual(["approved", "awaiting_approval", "draft"]);
    expect(canMove("submitting", "cancelled")).toBe(false);
  });
});

describe("approval thresholds (amounts in the payment currency)", () => {
  test.each([
    ["99.9999", "100", "10000", 0],
    ["100", "100", "10000", 1],
    ["10000", "100", "10000", 1],
    ["10000.0001", "100", "10000", 2],
    ["5", null, null, 1],
    ["50000", null, "10000", 2],
    ["5", "not-a-number", null, 1],
  ])("%s with auto<%s two>%s -> %i approvals", (amount, auto, two, expected) => {
    expect(requiredApprovalsFor(amount, { autoApproveBelow: auto, twoApprovalsAbove: two })).toBe(expected);
  });
});

describe("balance sufficiency at the current rate", () => {
  const balance = {
    amountInCurrencyBalance: "100",
    currencyBalance: "USDT",
    currencyPayment: "RUB",
    exchangeRate: "95.5",
    traceID: "t",
  };
  it("converts exactly and compares with the balance", () => {
    expect(checkBalance("9550", balance)).toMatchObject({ amountInBalanceCurrency: "100", sufficient: true });
    expect(checkBalance("9550.01", balance).sufficient).toBe(false);
    expect(checkBalance("1000", balance).amountInBalanceCurrency).toBe(
      "10.47120418848167539267015706806282722513",
    );
  });
  it("an unknown rate (0) leaves sufficiency unknown", () => {
    expect(checkBalance("1", { ...balance, exchangeRate: "0" })).toMatchObject({
      amountInBalanceCurrency: null,
      sufficient: null,
    });
  });
});

describe("platform errors in words, always with the traceID", () => {
  test.each([
    [
      "notEnoughMoneyOnBalance",
      "Not enough money on balance: required 157.5 USDT, available 20 USDT",
      /needs 157\.50\sUSDT, the balance has 20\.00\sUSDT/,
    ],
    ["fraud", "Anti-fraud", /anti-fraud check refused/],
    ["noSuitableTariffForRequest", "No tariff", /toCard is not in the merchant's tariff/],
    ["invalidRequestParameters", "Field 'number': must be 16-19 digits", /field number/],
    ["duplicateIdentifier", "dup", /already has an operation/],
    ["internalError", "User data not found", /credentials/],
    ["somethingNew", "?", /code somethingNew/],
  ])("%s", (codeError, message, expected) => {
    const explained = explainPlatformRefusal(
      { codeError, message, traceID: "trace-1", paymentMethod: "toCard" },
      platformWordsIn("en"),
    );
    expect(explained.message).toMatch(expected);
    expect(explained.traceID).toBe("trace-1");
  });
  it("names the field of invalidRequestParameters in other wordings", () => {
    expect(fieldFromMessage("The field bankName is required")).toBe("bankName");
    expect(fieldFromMessage("Field 'integrationMerhcnatData.webHook': bad")).toBe(
      "integrationMerhcnatData.webHook",
    );
  });
});
