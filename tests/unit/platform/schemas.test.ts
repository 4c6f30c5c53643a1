import { describe, expect, test } from "vitest";
import { effectiveAmountRandomized } from "@/lib/platform/amounts";
import {
  SchemaMismatchError,
  decodeBalance,
  decodeBanks,
  decodeOperation,
  decodeOperationList,
  decodeOperationPage,
  decodePaymentForm,
} from "@/lib/platform/schemas";
import { parseWireJson } from "@/lib/platform/wire";
import { OP_ID, operationJson } from "./fake-platform";

const op = (over: Record<string, string> = {}) => decodeOperation(parseWireJson(operationJson(over)));

describe("Operation", () => {
  test("an operation hidden under a __proto__ key is not an operation: its fields are not inherited", () => {
    const hidden = parseWireJson(`{"__proto__":${operationJson()}}`);
    expect(() => decodeOperation(hidden)).toThrow(SchemaMismatchError);
  });

  test("amounts are exact Decimals, dates Date + original text, raw kept", () => {
    const o = op({ amount: "922337203685477.5807" });
    expect(o.id).toBe(OP_ID);
    expect(o.typeOperation).toBe("payIn");
    expect(o.status).toBe("created");
    expect(o.amount.toFixed()).toBe("922337203685477.5807");
    expect(o.amountInitial.toFixed()).toBe("62.5");
    expect(o.amountComission?.toFixed()).toBe("1.875");
    expect(o.amountInCurrencyBalance?.toFixed()).toBe("0.6667");
    expect(o.exchangeRate?.toFixed()).toBe("93.75");
    expect(o.dateAdded.toISOString()).toBe("2025-11-18T14:53:31.079Z");
    expect(o.dateAddedText).toBe("2025-11-18T14:53:31.0796033Z");
    expect(o.raw.amount).toBe("922337203685477.5807");
    expect(o.raw.amountInitial).toBe("62.50");
    // Plain data only: a getter over the parsed wire value would keep the whole tree alive with it.
    for (const [key, descriptor] of Object.entries(Object.getOwnPropertyDescriptors(o)))
      expect([key, "value" in descriptor]).toEqual([key, true]);
    expect(o.paymentDetailsData).toMatchObject({
      paymentMethod: "sbp",
      number: "+79001234567",
      numberAdditional: null,
      qRcode: null,
    });
  });

  test.each([
    [
      "amountRandomized 0 accepted; display uses amountInitial",
      { amountRandomized: "0" },
      (o: ReturnType<typeof op>) => {
        expect(o.amountRandomized?.isZero()).toBe(true);
        expect(effectiveAmountRandomized(o).toFixed()).toBe("62.5");
      },
    ],
    [
      "randomised amount shown when set",
      { amountRandomized: "62.51" },
      (o: ReturnType<typeof op>) => {
        expect(effectiveAmountRandomized(o).toFixed()).toBe("62.51");
      },
    ],
    [
      "currency NotSet kept",
      { currency: `"NotSet"` },
      (o: ReturnType<typeof op>) => expect(o.currency).toBe("NotSet"),
    ],
    [
      "pay-out: no paymentDetailsData",
      { typeOperation: `"payOut"`, paymentDetailsData: "" },
      (o: ReturnType<typeof op>) => {
        expect(o.typeOperation).toBe("payOut");
        expect(o.paymentDetailsData).toBeNull();
      },
    ],
    [
      "pay-out in list: paymentDetailsData null",
      { typeOperation: `"PayOut"`, paymentDetailsData: "null" },
      (o: ReturnType<typeof op>) => {
        expect(o.typeOperation).toBe("payOut");
        expect(o.paymentDetailsData).toBeNull();
      },
    ],
    [
      "status casing normalised",
      { status: `"IN_PROGRESS"` },
      (o: ReturnType<typeof op>) => expect(o.status).toBe("in_progress"),
    ],
    [
      "pending_retry",
      { status: `"pending_retry"` },
      (o: ReturnType<typeof op>) => expect(o.status).toBe("pending_retry"),
    ],
    [
      "timestamp with no fraction",
      { dateAdded: `"2025-11-18T14:53:31Z"` },
      (o: ReturnType<typeof op>) => expect(o.dateAdded.getTime()).toBe(Date.UTC(2025, 10, 18, 14, 53, 31)),
    ],
    [
      "secondary amounts absent -> null",
      { amountComission: "", exchangeRate: "null" },
      (o: ReturnType<typeof op>) => {
        expect(o.amountComission).toBeNull();
        expect(o.exchangeRate).toBeNull();
      },
    ],
    [
      "failed pay-in read back with zeros",
      { status: `"failed"`, amountComission: "0", amountInCurrencyBalance: "0", exchangeRate: "0" },
      (o: ReturnType<typeof op>) => {
        expect(o.status).toBe("failed");
        expect(o.exchangeRate?.isZero()).toBe(true);
      },
    ],
    [
      "unknown method kept verbatim",
      {
        paymentDetailsData: `{"paymentMethod":"newMethod","bankName":"X","nameMediator":null,"number":"1","numberAdditional":null,"qRcode":null}`,
      },
      (o: ReturnType<typeof op>) => {
        expect(o.paymentDetailsData?.paymentMethod).toBe("newMethod");
      },
    ],
    [
      "uppercase id lower-cased",
      { id: `"${OP_ID.toUpperCase()}"` },
      (o: ReturnType<typeof op>) => expect(o.id).toBe(OP_ID),
    ],
  ])("%s", (_name, over, check) => {
    check(op(over));
  });

  test.each([
    ["amount missing", { amount: "" }, "amount"],
    ["amount as float-ish string", { amount: `"1e3"` }, "amount"],
    ["unknown status", { status: `"weird"` }, "status"],
    ["bad id", { id: `"42"` }, "id"],
    ["bad date", { dateAdded: `"yesterday"` }, "dateAdded"],
    ["bad typeOperation", { typeOperation: `"refund"` }, "typeOperation"],
  ])("%s -> SchemaMismatchError naming %s", (_name, over, field) => {
    expect(() => op(over)).toThrow(SchemaMismatchError);
    expect(() => op(over)).toThrow(new RegExp(field));
  });

  // The spec: no scientific notation. The mirror writes amounts out in plain notation: `1e300000000`,
  // a few bytes here, would be 300 million digits there.
  test.each([
    ["amount", "1e300000000"],
    ["amountInitial", "1E+2"],
    ["amountComission", "1.875e0"],
    ["amount", `1${"0".repeat(19)}`], // NUMERIC(24,4) holds 20 digits before the separator: one spare
    ["exchangeRate", `1${"0".repeat(15)}`], // NUMERIC(24,8): 16, one spare
    ["exchangeRate", `0.${"1".repeat(29)}`],
  ])("%s %s -> SchemaMismatchError naming it", (field, literal) => {
    let error: unknown;
    try {
      op({ [field]: literal });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SchemaMismatchError);
    expect((error as SchemaMismatchError).issues.map((i) => i.path.join("."))).toEqual([field]);
  });

  test("the largest amounts and rate the columns hold, with a digit to spare, are read", () => {
    const o = op({ amount: `${"9".repeat(19)}.9999`, exchangeRate: `${"9".repeat(15)}.${"1".repeat(28)}` });
    expect(o.amount.toFixed()).toBe(`${"9".repeat(19)}.9999`);
    expect(o.exchangeRate?.toFixed()).toBe(`${"9".repeat(15)}.${"1".repeat(28)}`);
  });

  test("list page: an item with an amount in exponent notation is unreadable, the others are read", () => {
    const page = decodeOperationPage(
      parseWireJson(
        `[${operationJson({ amount: "1e300000000" })},${operationJson({ status: `"success"` })}]`,
      ),
    );
    expect(page.operations.map((o) => o.status)).toEqual(["success"]);
    expect(page.unreadable).toEqual([
      {
        id: OP_ID,
        reason: "amount: expected a decimal number",
        fields: ["amount"],
        raw: expect.objectContaining({ amount: "1e300000000" }),
      },
    ]);
  });

  test("list: array, null, single object", () => {
    expect(
      decodeOperationList(
        parseWireJson(`[${operationJson()},${operationJson({ status: `"success"` })}]`),
      ).map((o) => o.status),
    ).toEqual(["created", "success"]);
    expect(decodeOperationList(null)).toEqual([]);
    expect(decodeOperationList(parseWireJson(operationJson()))).toHaveLength(1);
    expect(() => decodeOperationList(parseWireJson(`[${operationJson({ amount: "" })}]`))).toThrow(/\[0\]/);
  });
});

describe("payment form", () => {
  test("full operation plus link", () => {
    const f = decodePaymentForm(
      parseWireJson(
        operationJson({ status: `"precreated"`, linkPaymentForm: `"https://form.example/payment/${OP_ID}"` }),
      ),
    );
    expect(f.linkPaymentForm).toBe(`https://form.example/payment/${OP_ID}`);
    expect(f.status).toBe("precreated");
    expect(f.operation?.linkPaymentForm).toBe(f.linkPaymentForm);
  });

  test("minimal: link and status only", () => {
    const f = decodePaymentForm(parseWireJson(`{"linkPaymentForm":"https://f/x","status":"precreated"}`));
    expect(f).toMatchObject({
      linkPaymentForm: "https://f/x",
      status: "precreated",
      id: null,
      operation: null,
    });
  });

  test("no link -> mismatch", () => {
    expect(() => decodePaymentForm(parseWireJson(operationJson()))).toThrow(SchemaMismatchError);
  });
});

describe("balance and banks", () => {
  const balance = `{"amountInCurrencyBalance":922337203685477.5807,"currencyBalance":"USDT","amountInCurrencyPayment":0,"currencyPayment":"RUB","exchangeRate":0}`;

  test.each(["exchangeRate", "amountInCurrencyPayment"])(
    "balance: %s in exponent notation is refused",
    (field) => {
      const exponent = balance.replace(`"${field}":0`, `"${field}":9e99999999`);
      expect(exponent).toContain("9e99999999");
      expect(() => decodeBalance(parseWireJson(exponent))).toThrow(SchemaMismatchError);
    },
  );

  test("balance record exact; array accepted", () => {
    const [b] = decodeBalance(parseWireJson(balance));
    expect(b?.amountInCurrencyBalance.toFixed()).toBe("922337203685477.5807");
    expect(b?.exchangeRate.isZero()).toBe(true);
    expect(decodeBalance(parseWireJson(`[${balance},${balance}]`))).toHaveLength(2);
    expect(() => decodeBalance(parseWireJson("[]"))).toThrow(SchemaMismatchError);
    expect(() => decodeBalance(parseWireJson(`{"currencyBalance":"USDT"}`))).toThrow(SchemaMismatchError);
  });

  test("banks: objects, strings, or a mix -> {id, name}", () => {
    const banks = decodeBanks(
      parseWireJson(
        `[{"id":"d9428888-122b-11e1-b85c-61cd3cbb3210","name":"Sber"},"T-Bank",{"bankName":"VTB"}]`,
      ),
    );
    expect(banks).toEqual([
      { id: "d9428888-122b-11e1-b85c-61cd3cbb3210", name: "Sber" },
      { id: null, name: "T-Bank" },
      { id: null, name: "VTB" },
    ]);
    expect(decodeBanks(null)).toEqual([]);
    expect(() => decodeBanks(parseWireJson(`[{"id":"x"}]`))).toThrow(SchemaMismatchError);
  });
});
