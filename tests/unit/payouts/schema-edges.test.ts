// The pay-out form's schema at its edges, read as the catalog keys it gives (not as words): the
// merchant id's pattern part by part, each method's number at its lengths, the method's three refusals,
// the recipient name's types, the webhook URL's schemes and its parsed form, and the id and decision
// schemas. Each case here was a mutation that the worded tests let through.
import { describe, expect, test } from "vitest";
import type { z } from "zod";
import { luhnValid } from "@/lib/payouts/luhn";
import {
  checkRecipientNumber,
  decisionSchema,
  MERCHANT_ID,
  payoutFields,
  payoutFormSchema,
  payoutIdSchema,
} from "@/lib/payouts/schemas";
import type { PayOutMethod } from "@/lib/platform/payment-methods";

/** A Luhn-valid card of the given length. */
function card(length: number): string {
  const body = "2".padEnd(length - 1, "0");
  for (let d = 0; d <= 9; d++) if (luhnValid(`${body}${d}`)) return `${body}${d}`;
  throw new Error("unreachable");
}

const form = {
  paymentMethod: "toCard",
  bankName: "Сбербанк",
  recipientNumber: card(16),
  recipientName: "Ivan Petrov",
  amount: "100",
  clientID: "client-1",
  clientIP: "85.143.12.7",
  clientDateCreated: "2023-04-17",
};

/** The issues as path, catalog key and arguments. */
function issuesOf(schema: z.ZodType, input: unknown) {
  const r = schema.safeParse(input);
  if (r.success) return [];
  return r.error.issues.map((i) => ({
    path: i.path.join("."),
    message: i.message,
    ...("params" in i && i.params ? { params: i.params } : {}),
  }));
}

const ID = "po-0123abcd-4567-89ab-cdef-0123456789ab";

describe("the merchant id of a console pay-out: po- and a lower-case UUID, nothing around it", () => {
  test("the id itself passes", () => {
    expect(MERCHANT_ID.test(ID)).toBe(true);
    expect(payoutFields.parse({ ...form, idTransactionMerchant: ID }).idTransactionMerchant).toBe(ID);
  });

  // Each of the five groups one character short, and with a character that is not hex.
  const groups = ID.slice(3).split("-");
  const variants = groups.flatMap((g, i) => {
    const with_ = (replacement: string) =>
      `po-${groups.map((h, j) => (j === i ? replacement : h)).join("-")}`;
    return [
      [`group ${i + 1} one short`, with_(g.slice(1))],
      [`group ${i + 1} not hex`, with_(`g${g.slice(1)}`)],
    ];
  });
  test.each([
    ...variants,
    ["something before it", `x${ID}`],
    ["something after it", `${ID}0`],
    ["upper case", ID.toUpperCase().replace("PO-", "po-")],
  ])("%s is refused", (_what, id) => {
    expect(MERCHANT_ID.test(id)).toBe(false);
    expect(issuesOf(payoutFields, { ...form, idTransactionMerchant: id })).toEqual([
      { path: "idTransactionMerchant", message: "payouts.form.merchantId.invalid" },
    ]);
  });

  test("left empty it is absent; over 64 characters it is refused by length, in the merchant id's words", () => {
    expect(payoutFields.parse({ ...form, idTransactionMerchant: "" }).idTransactionMerchant).toBeUndefined();
    expect(issuesOf(payoutFields, { ...form, idTransactionMerchant: `${ID}${"0".repeat(30)}` })).toEqual([
      { path: "idTransactionMerchant", message: "validation.field.merchantId.tooLong" },
    ]);
  });
});

describe("the method", () => {
  test.each([
    ["", { message: "payouts.form.paymentMethod.required" }],
    ["   ", { message: "payouts.form.paymentMethod.required" }],
    ["carrier pigeon", { message: "payouts.form.paymentMethod.unknown" }],
    ["ecom", { message: "payouts.form.paymentMethod.notForPayouts", params: { method: "ecom" } }],
    ["KZT_SBP", { message: "payouts.form.paymentMethod.notForPayouts", params: { method: "kzt_sbp" } }],
  ])("%j: %o", (method, issue) => {
    expect(issuesOf(payoutFields, { ...form, paymentMethod: method })).toEqual([
      { path: "paymentMethod", ...issue },
    ]);
  });

  test("too long, in the method's words", () => {
    expect(issuesOf(payoutFields, { ...form, paymentMethod: "x".repeat(65) })).toEqual([
      { path: "paymentMethod", message: "validation.field.paymentMethod.tooLong" },
    ]);
  });
});

describe("the recipient number per method", () => {
  const refused = (problem: string, params?: object) => ({
    ok: false,
    message: `payouts.form.recipientNumber.${problem}`,
    ...(params ? { params } : {}),
  });

  test.each([15, 20])("a card of %i digits is refused by its length", (n) => {
    expect(checkRecipientNumber("toCard", card(n))).toEqual(refused("cardLength", { count: n }));
  });

  test.each([16, 19])("a card of %i digits passes", (n) => {
    expect(checkRecipientNumber("toCard", card(n))).toEqual({ ok: true, value: card(n) });
  });

  // Luhn reads from the right, so zeros in front of a valid card pass it: "0" + card and "00" + card
  // were stored as recipients of their own, outside the duplicate guard and the recipient's window.
  test.each([
    ["0", "toCard"],
    ["00", "toCard"],
    ["000", "toCard"],
    ["0", "sber_sber"],
    ["0 ", "toCard"],
  ] as const)("%j in front of a valid card (%s) is refused, never a new recipient", (zeros, method) => {
    const number = `${zeros}${card(16)}`;
    expect(luhnValid(number.replace(/\s/g, ""))).toBe(true);
    expect(checkRecipientNumber(method, number)).toEqual(refused("cardLeadingZero"));
  });

  test("a card of 16 to 19 digits starting with 0 is refused (no card number starts with 0)", () => {
    for (const n of [16, 19]) {
      const zero = `0${card(n).slice(1)}`;
      const valid = Array.from({ length: 10 }, (_, d) => `${zero.slice(0, -1)}${d}`).find(luhnValid)!;
      expect(checkRecipientNumber("toCard", valid)).toEqual(refused("cardLeadingZero"));
    }
  });

  test("an account is exactly 20 digits, spaces and dashes allowed between them", () => {
    const account = "40817810099910004312";
    expect(checkRecipientNumber("toAccount", "4081-7810 0999 1000 4312")).toEqual({
      ok: true,
      value: account,
    });
    for (const bad of [`x${account}`, `${account}x`, `${account}0`, account.slice(1)]) {
      expect(checkRecipientNumber("toAccount", bad)).toEqual(refused("account"));
    }
  });

  test("blank is required, not a malformed number; spaces around a card are dropped", () => {
    expect(checkRecipientNumber("toCard", "   ")).toEqual(refused("required"));
    expect(checkRecipientNumber("toCard", ` ${card(16)} `)).toEqual({ ok: true, value: card(16) });
  });

  test("a mono-bank method takes a card or a phone, and says so when it is neither", () => {
    expect(checkRecipientNumber("sber_sber", card(16))).toEqual({ ok: true, value: card(16) });
    expect(checkRecipientNumber("sber_sber", "8 (912) 345-67-89")).toEqual({
      ok: true,
      value: "+79123456789",
    });
    expect(checkRecipientNumber("sber_sber", "12345")).toEqual(
      refused("cardOrPhone", { method: "sber_sber" }),
    );
  });

  test("a method that is not a pay-out method (past the type) is refused, not checked as a bank pair", () => {
    expect(checkRecipientNumber("ecom" as PayOutMethod, card(16))).toEqual(refused("unknownMethod"));
  });

  test("too long, in the recipient number's words", () => {
    expect(issuesOf(payoutFields, { ...form, recipientNumber: "1".repeat(65) })).toEqual([
      { path: "recipientNumber", message: "validation.field.recipientNumber.tooLong" },
    ]);
  });
});

describe("the recipient's name", () => {
  test.each([
    [null, "payouts.form.recipientName.null"],
    [undefined, "payouts.form.recipientName.missing"],
    [42, "validation.notText"],
  ])("%j: %s", (name, message) => {
    expect(issuesOf(payoutFields, { ...form, recipientName: name })).toEqual([
      { path: "recipientName", message },
    ]);
  });

  test("over 200 characters: only the length is reported, even with a bidi control inside", () => {
    expect(issuesOf(payoutFields, { ...form, recipientName: `\u202e${"x".repeat(200)}` })).toEqual([
      { path: "recipientName", message: "validation.field.recipientName.tooLong" },
    ]);
  });
});

describe("the webhook URL", () => {
  test.each(["ftp://example.com/hook", "xhttps://example.com/hook", "httpsx://example.com/hook"])(
    "%s is refused",
    (url) => {
      expect(issuesOf(payoutFields, { ...form, webhookUrl: url })).toEqual([
        { path: "webhookUrl", message: "validation.webhookUrl.invalid" },
      ]);
    },
  );

  test("http and https are taken in their parsed form; empty is absent", () => {
    expect(payoutFields.parse({ ...form, webhookUrl: "http://Example.COM/a b" }).webhookUrl).toBe(
      "http://example.com/a%20b",
    );
    expect(payoutFields.parse({ ...form, webhookUrl: "https://example.com" }).webhookUrl).toBe(
      "https://example.com/",
    );
    expect(payoutFields.parse({ ...form, webhookUrl: "" }).webhookUrl).toBeUndefined();
    expect(payoutFields.parse(form).webhookUrl).toBeUndefined();
  });
});

describe("whole inputs and the id schemas", () => {
  test.each([null, "form", 7, []])("%j instead of a form: one message for the whole", (input) => {
    expect(issuesOf(payoutFormSchema, input)).toEqual([{ path: "", message: "payouts.form.fields" }]);
  });

  test("a pay-out id: a UUID in any case, kept in lower case; otherwise invalid or missing", () => {
    const id = "0123ABCD-4567-49AB-8DEF-0123456789AB";
    expect(payoutIdSchema.parse({ id })).toEqual({ id: id.toLowerCase() });
    expect(issuesOf(payoutIdSchema, { id: "po-1" })).toEqual([
      { path: "id", message: "payouts.form.id.invalid" },
    ]);
    expect(issuesOf(payoutIdSchema, null)).toEqual([{ path: "", message: "payouts.form.id.missing" }]);
  });

  test("a decision needs a comment that is not blank", () => {
    const id = "0123abcd-4567-49ab-8def-0123456789ab";
    expect(issuesOf(decisionSchema, { id, comment: "  " })).toEqual([
      { path: "comment", message: "payouts.form.comment.required" },
    ]);
    expect(decisionSchema.parse({ id, comment: " ok " })).toEqual({ id, comment: "ok" });
  });
});
