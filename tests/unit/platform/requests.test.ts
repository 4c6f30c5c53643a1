import { describe, expect, test } from "vitest";
import { Decimal } from "@/lib/money/decimal";
import { PlatformRequestError } from "@/lib/platform/errors";
import {
  buildFullPaymentFormBody,
  buildListOperationsBody,
  buildPayInBody,
  buildPayOutBody,
  buildPreparePaymentFormBody,
  type PayInRequest,
  type PayOutRequest,
} from "@/lib/platform/requests";
import { stringifyWire } from "@/lib/platform/wire";

const client = { clientID: "client-42", clientIP: "203.0.113.7", clientDateCreated: "2024-01-15T10:00:00Z" };
const payIn: PayInRequest = {
  paymentMethod: "sbp",
  idTransactionMerchant: "order-1",
  amount: "62.50",
  ...client,
};
const payOut: PayOutRequest = {
  ...payIn,
  paymentMethod: "toCard",
  number: "4111111111111234",
  bankName: "Sber",
};

function refused(fn: () => unknown): PlatformRequestError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(PlatformRequestError);
    return e as PlatformRequestError;
  }
  throw new Error("expected a PlatformRequestError");
}

describe("pay-in body", () => {
  test("exact JSON: amount as a JSON number, fields in order", () => {
    expect(stringifyWire(buildPayInBody(payIn))).toBe(
      `{"paymentMethod":"sbp","idTransactionMerchant":"order-1","amount":62.5,"clientID":"client-42","clientIP":"203.0.113.7","clientDateCreated":"2024-01-15T10:00:00Z"}`,
    );
  });

  test("Decimal amount, Date client date, webhook, method casing", () => {
    const body = stringifyWire(
      buildPayInBody({
        ...payIn,
        paymentMethod: "ToCard" as never,
        amount: new Decimal("922337203685477.5807"),
        clientDateCreated: new Date(Date.UTC(2024, 0, 15, 10)),
        integrationMerhcnatData: { webHook: "https://shop.example/hook" },
      }),
    );
    expect(body).toContain(`"paymentMethod":"toCard"`);
    expect(body).toContain(`"amount":922337203685477.5807`);
    expect(body).toContain(`"clientDateCreated":"2024-01-15T10:00:00.000Z"`);
    expect(body).toContain(`"integrationMerhcnatData":{"webHook":"https://shop.example/hook"}`);
  });

  test("empty integrationMerhcnatData is left out", () => {
    expect(buildPayInBody({ ...payIn, integrationMerhcnatData: {} })).not.toHaveProperty(
      "integrationMerhcnatData",
    );
  });

  test.each([
    ["1.23456", /more than 4 digits/],
    ["1e3", /not a plain decimal/],
    ["-1", /greater than zero/],
    ["0", /greater than zero/],
    ["NaN", /not a plain decimal/],
    [Number.NaN, /not a plain decimal/],
  ])("amount %s refused, naming the field", (amount, message) => {
    const e = refused(() => buildPayInBody({ ...payIn, amount: amount as string }));
    expect(e.field).toBe("amount");
    expect(e.message).toMatch(message);
  });

  test.each([
    ["paymentMethod", { paymentMethod: "cash" }],
    ["idTransactionMerchant", { idTransactionMerchant: "  " }],
    ["clientID", { clientID: "" }],
    ["clientIP", { clientIP: "not-an-ip" }],
    ["clientDateCreated", { clientDateCreated: "yesterday" }],
    ["clientDateCreated", { clientDateCreated: new Date(NaN) }],
    ["integrationMerhcnatData.webHook", { integrationMerhcnatData: { webHook: "ftp://x" } }],
    [
      "integrationMerhcnatData.webHook",
      { integrationMerhcnatData: { webHook: "httpsx://shop.example/hook" } },
    ],
    [
      "integrationMerhcnatData.webHook",
      { integrationMerhcnatData: { webHook: "xhttp://shop.example/hook" } },
    ],
  ])("%s refused", (field, over) => {
    expect(refused(() => buildPayInBody({ ...payIn, ...(over as Partial<PayInRequest>) })).field).toBe(field);
  });

  test("a webhook over plain http is accepted (the platform's own examples use it)", () => {
    const body = buildPayInBody({
      ...payIn,
      integrationMerhcnatData: { webHook: "http://shop.example/hook" },
    });
    expect(body.integrationMerhcnatData).toEqual({ webHook: "http://shop.example/hook" });
  });

  test("an amount's refusal names the field once, and the reason", () => {
    const e = refused(() => buildPayInBody({ ...payIn, amount: "1.23456" }));
    expect(e.issues).toEqual([
      { field: "amount", message: 'more than 4 digits after the separator (got "1.23456")' },
    ]);
  });

  test("IPv6 and mono-bank / KZT methods accepted", () => {
    expect(
      buildPayInBody({ ...payIn, clientIP: "2001:db8::1", paymentMethod: "sber_sber" }).paymentMethod,
    ).toBe("sber_sber");
    expect(buildPayInBody({ ...payIn, paymentMethod: "kzt_qr" }).paymentMethod).toBe("kzt_qr");
  });
});

describe("pay-out body", () => {
  test("recipient fields; nameMediator defaults to empty string, never null", () => {
    const body = buildPayOutBody(payOut);
    expect(body).toMatchObject({
      paymentMethod: "toCard",
      number: "4111111111111234",
      bankName: "Sber",
      nameMediator: "",
    });
    expect(buildPayOutBody({ ...payOut, nameMediator: "Ivan" }).nameMediator).toBe("Ivan");
  });

  test.each(["transgran", "transgranSBP", "nspk", "ecom", "mobile", "kzt_c2c"])(
    "%s is not allowed for pay-out",
    (method) => {
      const e = refused(() => buildPayOutBody({ ...payOut, paymentMethod: method as never }));
      expect(e.field).toBe("paymentMethod");
    },
  );

  test.each([
    ["number", { number: "" }],
    ["bankName", { bankName: "" }],
    ["amount", { amount: "10.00001" }],
  ])("%s refused", (field, over) => {
    expect(refused(() => buildPayOutBody({ ...payOut, ...over })).field).toBe(field);
  });

  test("mono-bank pay-out accepted", () => {
    expect(buildPayOutBody({ ...payOut, paymentMethod: "tbank_tbank" }).paymentMethod).toBe("tbank_tbank");
  });
});

describe("payment form and list bodies", () => {
  const form = { idTransactionMerchant: "order-9", amount: "5000", ...client };

  test("prepare: no paymentMethod, redirects kept", () => {
    const body = buildPreparePaymentFormBody({
      ...form,
      integrationMerhcnatData: {
        redirectSuccessURL: "https://shop/ok",
        redirectFailURL: "https://shop/fail",
      },
    });
    expect(body).not.toHaveProperty("paymentMethod");
    expect(stringifyWire(body)).toContain(`"amount":5000`);
    expect(body.integrationMerhcnatData).toEqual({
      redirectSuccessURL: "https://shop/ok",
      redirectFailURL: "https://shop/fail",
    });
  });

  test("full: paymentMethod required", () => {
    expect(buildFullPaymentFormBody({ ...form, paymentMethod: "ecom" }).paymentMethod).toBe("ecom");
    expect(refused(() => buildFullPaymentFormBody({ ...form } as never)).field).toBe("paymentMethod");
  });

  test("list: integers as JSON numbers", () => {
    expect(stringifyWire(buildListOperationsBody({ skip: 0, take: 100 }))).toBe(`{"skip":0,"take":100}`);
    expect(refused(() => buildListOperationsBody({ skip: -1, take: 10 })).field).toBe("skip");
    expect(refused(() => buildListOperationsBody({ skip: 0, take: 0.5 })).field).toBe("take");
  });
});
