// The platform client's smaller rules at their edges, each with its exact words: timestamps at the ends
// of their ranges, request bodies refused before sending, response schemas refusing a field, payment
// method spellings, recorder masking, webhook bodies, and the balance-shortage reader.
import { describe, expect, test } from "vitest";
import { Decimal } from "@/lib/money/decimal";
import { finalStatuses, isFinal } from "@/lib/operations/status";
import { effectiveAmountRandomized } from "@/lib/platform/amounts";
import { PlatformRequestError, parseBalanceShortage } from "@/lib/platform/errors";
import {
  isMonoBankMethod,
  isPayOutMethod,
  normalisePaymentMethod,
  type PaymentMethod,
} from "@/lib/platform/payment-methods";
import {
  RESPONSE_BODY_LIMIT,
  maskNumber,
  maskRequestBody,
  maskResponseBody,
  type ApiCallRecord,
} from "@/lib/platform/recorder";
import {
  buildPayInBody,
  buildPayOutBody,
  buildPreparePaymentFormBody,
  type PayInRequest,
  type PayOutRequest,
} from "@/lib/platform/requests";
import {
  SchemaMismatchError,
  decodeBalance,
  decodeBanks,
  decodeOperation,
  decodeOperationList,
  decodePaymentForm,
  describeIssues,
  normaliseOperationStatus,
  normaliseOperationType,
} from "@/lib/platform/schemas";
import { parsePlatformTimestamp } from "@/lib/platform/timestamps";
import { WebhookBodyError, parseWebhookBody } from "@/lib/platform/webhook-body";
import { parseWireJson, stringifyWire, type WireValue } from "@/lib/platform/wire";
import { OP_ID, TRACE, nestedError, operationJson, specError, specOk } from "./fake-platform";
import { InMemoryRecorder } from "../../support/in-memory-recorder";

const wire = (text: string) => parseWireJson(text);

function thrownBy(run: () => unknown): unknown {
  try {
    run();
  } catch (e) {
    return e;
  }
  throw new Error("expected an error");
}

describe("timestamps at the ends of their ranges", () => {
  test.each([
    ["2025-12-31T23:59:59.999Z", "2025-12-31T23:59:59.999Z"],
    ["2025-01-01T00:00:00Z", "2025-01-01T00:00:00.000Z"],
    ["2024-02-29T12:00:00Z", "2024-02-29T12:00:00.000Z"], // a leap day
    ["2025-11-18T14:53Z", "2025-11-18T14:53:00.000Z"], // no seconds
    ["2025-11-18 14:53:31Z", "2025-11-18T14:53:31.000Z"], // a space for the T
    ["2025-11-18t14:53:31z", "2025-11-18T14:53:31.000Z"], // lower case
    ["  2025-11-18T14:53:31Z \n", "2025-11-18T14:53:31.000Z"], // surrounding blanks
    ["2025-11-18T14:53:31-03:00", "2025-11-18T17:53:31.000Z"], // west of UTC
    ["2025-11-18T14:53:31+05:30", "2025-11-18T09:23:31.000Z"], // minutes in the offset
    ["2025-11-18T14:53:31-0930", "2025-11-19T00:23:31.000Z"], // offset without a colon
    ["2025-11-18T14:53:31.123456789Z", "2025-11-18T14:53:31.123Z"],
  ])("%j -> %s", (text, iso) => {
    expect(parsePlatformTimestamp(text)?.toISOString()).toBe(iso);
  });

  test.each([
    "2025-11-18T14:60:00Z", // minute 60
    "2025-11-18T14:59:60Z", // a leap second is not written by the platform
    "2025-11-18T24:00:00Z",
    "2025-00-10T00:00:00Z",
    "2025-11-00T00:00:00Z",
    "2025-11-32T00:00:00Z",
    "2025-04-31T00:00:00Z",
    "2025-02-29T00:00:00Z", // not a leap year
    "x2025-11-18T14:53:31Z",
    "2025-11-18T14:53:31Zx",
    "2025-11-18T14:53:31.Z",
    "2025-11-18T14:53:31.1234567890Z", // ten fractional digits
    "2025-11-18",
    "25-11-18T14:53:31Z",
  ])("refuses %j", (text) => {
    expect(parsePlatformTimestamp(text)).toBeNull();
  });
});

describe("request bodies refused before sending, with the field and the words", () => {
  const client = {
    clientID: "client-42",
    clientIP: "203.0.113.7",
    clientDateCreated: "2024-01-15T10:00:00Z",
  };
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
  const issues = (run: () => unknown) => (thrownBy(run) as PlatformRequestError).issues;

  test.each([
    [{ amount: "1.23456" }, "amount", 'more than 4 digits after the separator (got "1.23456")'],
    [{ amount: "0" }, "amount", 'must be greater than zero (got "0")'],
    [{ amount: "1e3" }, "amount", 'not a plain decimal number (got "1e3")'],
    [{ idTransactionMerchant: "   " }, "idTransactionMerchant", "required"],
    [{ clientID: "" }, "clientID", "required"],
    [{ clientIP: "localhost" }, "clientIP", "expected an IPv4 or IPv6 address"],
    [{ clientDateCreated: "yesterday" }, "clientDateCreated", "expected an ISO-8601 date"],
    [{ paymentMethod: "card" }, "paymentMethod", 'unknown payment method "card"'],
    [
      { integrationMerhcnatData: { webHook: "ftp://shop.example/hook" } },
      "integrationMerhcnatData.webHook",
      "expected an http(s) URL",
    ],
    [
      { integrationMerhcnatData: { webHook: "xhttps://shop.example/hook" } },
      "integrationMerhcnatData.webHook",
      "expected an http(s) URL",
    ],
  ])("pay-in %j -> %s: %s", (over, field, message) => {
    expect(issues(() => buildPayInBody({ ...payIn, ...over } as PayInRequest))).toEqual([{ field, message }]);
  });

  test.each([
    [{ paymentMethod: "ecom" }, "ecom is not available for pay-out"],
    [{ paymentMethod: "Transgran" }, "transgran is not available for pay-out"],
    [{ paymentMethod: "card" }, 'unknown payment method "card"'],
  ])("pay-out %j: %s", (over, message) => {
    expect(issues(() => buildPayOutBody({ ...payOut, ...over } as PayOutRequest))).toEqual([
      { field: "paymentMethod", message },
    ]);
  });

  test("pay-out: number and bank are required; no recipient name is sent as empty text", () => {
    expect(issues(() => buildPayOutBody({ ...payOut, number: " ", bankName: "" }))).toEqual([
      { field: "number", message: "required" },
      { field: "bankName", message: "required" },
    ]);
    expect(buildPayOutBody(payOut).nameMediator).toBe("");
  });

  test("the refusal's message lists every issue", () => {
    const e = thrownBy(() => buildPayInBody({ ...payIn, amount: "x", clientID: "" })) as PlatformRequestError;
    expect(e.message).toBe(
      'Request refused before sending: amount: not a plain decimal number (got "x"); clientID: required',
    );
    expect(e.field).toBe("amount");
  });

  test("an amount that fails for another reason than its value is not turned into a refusal", () => {
    const broken = {
      toString() {
        throw new Error("broken amount");
      },
    };
    expect(() => buildPayInBody({ ...payIn, amount: broken as never })).toThrow("broken amount");
  });

  test("the client's date is sent as given (trimmed), a Date as ISO-8601", () => {
    expect(buildPayInBody({ ...payIn, clientDateCreated: " 2024-01-15T10:00:00Z " }).clientDateCreated).toBe(
      "2024-01-15T10:00:00Z",
    );
  });

  test("integration data: undefined entries are left out, an object left empty is not sent", () => {
    expect(buildPayInBody({ ...payIn, integrationMerhcnatData: { webHook: undefined } })).not.toHaveProperty(
      "integrationMerhcnatData",
    );
    expect(
      buildPreparePaymentFormBody({
        ...client,
        idTransactionMerchant: "o",
        amount: "1",
        integrationMerhcnatData: { webHook: undefined, redirectSuccessURL: "https://shop.example/ok" },
      }).integrationMerhcnatData,
    ).toEqual({ redirectSuccessURL: "https://shop.example/ok" });
  });
});

describe("response schemas refuse a field with its path and the reason", () => {
  const mismatch = (run: () => unknown) => {
    const e = thrownBy(run);
    expect(e).toBeInstanceOf(SchemaMismatchError);
    return e as SchemaMismatchError;
  };
  const op = (over: Record<string, string>) => wire(operationJson(over));

  test.each([
    [{ amount: `"abc"` }, "amount: expected a decimal number"],
    [{ amountComission: `"x"` }, "amountComission: expected a decimal number or null"],
    [{ dateAdded: `"yesterday"` }, "dateAdded: expected an ISO-8601 timestamp"],
    [{ status: `"done"` }, 'status: unknown operation status "done"'],
    [{ typeOperation: `"refund"` }, 'typeOperation: unknown typeOperation "refund"'],
    [{ id: `"not-a-uuid"` }, "id: expected a UUID"],
    [{ id: `"${OP_ID}0"` }, "id: expected a UUID"],
    [{ id: `"x${OP_ID}"` }, "id: expected a UUID"],
  ])("%j -> %s", (over, issue) => {
    const e = mismatch(() => decodeOperation(op(over)));
    expect(e.message).toBe(`operation does not match the expected shape: ${issue}`);
    expect(e).toMatchObject({ name: "SchemaMismatchError", what: "operation" });
  });

  test("not an object: the root is named; the caller names what it decodes", () => {
    expect(mismatch(() => decodeOperation(wire("[1]"))).message).toBe(
      "operation does not match the expected shape: (root): expected an object",
    );
    expect(mismatch(() => decodeOperation(wire(`"x"`), "webhook operation")).message).toMatch(
      /^webhook operation does not match/,
    );
  });

  test("optional parts: absent or null secondary amounts and details are null; upper-case ids are lowered", () => {
    const decoded = decodeOperation(
      op({
        id: `"${OP_ID.toUpperCase()}"`,
        amountComission: "",
        exchangeRate: "null",
        dateUpdated: "",
        paymentDetailsData: `{"paymentMethod":"SBP","numberAdditional":{"n":1.50},"qRcode":null}`,
      }),
    );
    expect(decoded).toMatchObject({
      id: OP_ID,
      amountComission: null,
      exchangeRate: null,
      dateUpdated: null,
      dateUpdatedText: null,
      linkPaymentForm: null,
      paymentDetailsData: {
        paymentMethod: "sbp",
        bankName: null,
        nameMediator: null,
        number: null,
        numberAdditional: { n: "1.50" },
        qRcode: null,
      },
    });
    expect(decodeOperation(op({ paymentDetailsData: `{}` })).paymentDetailsData).toEqual({
      paymentMethod: null,
      bankName: null,
      nameMediator: null,
      number: null,
      numberAdditional: null,
      qRcode: null,
    });
    expect(
      decodeOperation(op({ paymentDetailsData: `{"paymentMethod":"brandNew"}` })).paymentDetailsData
        ?.paymentMethod,
    ).toBe("brandNew");
  });

  test("dateUpdated keeps its original text", () => {
    expect(decodeOperation(op({ dateUpdated: `"2025-11-18T14:53:31.0796033Z"` }))).toMatchObject({
      dateUpdated: new Date("2025-11-18T14:53:31.079Z"),
      dateUpdatedText: "2025-11-18T14:53:31.0796033Z",
    });
  });

  test("lists: each element named by its index; neither array nor object is refused", () => {
    expect(
      mismatch(() => decodeOperationList(wire(`[${operationJson()},${operationJson({ amount: `"x"` })}]`)))
        .message,
    ).toBe("operation list[1] does not match the expected shape: amount: expected a decimal number");
    expect(mismatch(() => decodeOperationList(wire(operationJson({ amount: `"x"` })))).message).toMatch(
      /^operation list\[0\] does not match/,
    );
    expect(mismatch(() => decodeOperationList(wire(`"x"`))).message).toBe(
      "operation list does not match the expected shape: (root): expected an array",
    );
    expect(mismatch(() => decodeOperationList(wire(`"x"`), "page")).what).toBe("page");
  });

  test("payment forms: the link is required; an incomplete operation is no operation; raw JSON kept", () => {
    expect(mismatch(() => decodePaymentForm(wire(`{"status":"created"}`))).message).toMatch(
      /^payment form does not match the expected shape: linkPaymentForm: /,
    );
    const text = operationJson({ amount: `"x"`, linkPaymentForm: `"https://pay.example/f"` });
    const form = decodePaymentForm(wire(text));
    expect(form).toMatchObject({
      linkPaymentForm: "https://pay.example/f",
      id: OP_ID,
      status: "created",
      operation: null,
    });
    expect(form.raw).toMatchObject({ amount: "x" });
  });

  test("balance: an empty list and a malformed record are refused", () => {
    expect(mismatch(() => decodeBalance(wire("[]"))).message).toBe(
      "balance does not match the expected shape: (root): empty balance list",
    );
    expect(mismatch(() => decodeBalance(wire(`{"currencyBalance":"USDT"}`))).what).toBe("balance");
  });

  test("banks: a record without a name is refused; no data is an empty list", () => {
    const e = mismatch(() => decodeBanks(wire(`[{"id":"1"}]`)));
    expect(e.what).toBe("bank list");
    expect(e.message).toBe("bank list does not match the expected shape: 0: Invalid input");
    expect(decodeBanks(null)).toEqual([]);
    expect(decodeBanks(wire(`[{"id":null,"bankName":"Sber"},""]`.replace(`,""`, "")))).toEqual([
      { id: null, name: "Sber" },
    ]);
  });

  test("describeIssues: the root, dotted paths, at most five, then a count", () => {
    const issue = (path: (string | number)[], message: string) =>
      ({ code: "custom", path, message, input: null }) as never;
    expect(describeIssues([issue([], "a"), issue(["x", 0, "y"], "b")])).toBe("(root): a; x.0.y: b");
    const six = Array.from({ length: 6 }, (_, i) => issue([`f${i}`], "bad"));
    expect(describeIssues(six)).toBe("f0: bad; f1: bad; f2: bad; f3: bad; f4: bad; …and 1 more");
    expect(describeIssues(six.slice(0, 5))).toBe("f0: bad; f1: bad; f2: bad; f3: bad; f4: bad");
    expect(describeIssues(six, 2)).toBe("f0: bad; f1: bad; …and 4 more");
  });

  test.each([
    [" In_Progress ", "in_progress"],
    ["IN-PROGRESS", "in_progress"],
    ["pending retry", "pending_retry"],
    ["Success", "success"],
    ["successful", null],
    ["", null],
  ])("normaliseOperationStatus(%j) = %j", (text, status) => {
    expect(normaliseOperationStatus(text)).toBe(status);
  });

  test.each([
    [" PAYOUT ", "payOut"],
    ["payin", "payIn"],
    ["pay_in", null],
  ])("normaliseOperationType(%j) = %j", (text, type) => {
    expect(normaliseOperationType(text)).toBe(type);
  });

  test("final statuses", () => {
    expect([...finalStatuses]).toEqual(["success", "failed"]);
    expect(["created", "in_progress", "success", "failed"].filter((s) => isFinal(s as never))).toEqual([
      "success",
      "failed",
    ]);
  });

  test("the randomised amount to show: amountRandomized unless absent or zero", () => {
    const d = (s: string) => new Decimal(s);
    expect(
      effectiveAmountRandomized({ amountInitial: d("100"), amountRandomized: d("100.07") }).toFixed(),
    ).toBe("100.07");
    expect(effectiveAmountRandomized({ amountInitial: d("100"), amountRandomized: d("0") }).toFixed()).toBe(
      "100",
    );
    expect(effectiveAmountRandomized({ amountInitial: d("100"), amountRandomized: null }).toFixed()).toBe(
      "100",
    );
  });
});

describe("payment method spellings", () => {
  test.each([
    ["SBP", "sbp"],
    [" ToCard ", "toCard"],
    ["TRANSGRANSBP", "transgranSBP"],
    ["KZT_C2C", "kzt_c2c"],
    ["SBER_SBER", "sber_sber"],
    ["bank2_bank2", "bank2_bank2"],
    ["sber_tbank", null],
    ["xsber_sber", null],
    ["sber_sberx", null],
    ["_", null],
    ["2bank_2bank", null],
    ["card", null],
  ])("normalisePaymentMethod(%j) = %j", (text, method) => {
    expect(normalisePaymentMethod(text)).toBe(method);
  });

  test.each([
    ["toCard", true],
    ["sbp", true],
    ["toAccount", true],
    ["sber_sber", true],
    ["ecom", false],
    ["kzt_c2c", false],
  ])("isPayOutMethod(%s) = %s", (method, payOut) => {
    expect(isPayOutMethod(method as PaymentMethod)).toBe(payOut);
  });

  test("mono-bank pairs: the same alias on both sides", () => {
    expect(isMonoBankMethod("vtb_vtb")).toBe(true);
    expect(isMonoBankMethod("VTB_VTB")).toBe(false); // only after normalising
  });
});

describe("recorder masking", () => {
  test.each([
    ["4111111111111234", "************1234"],
    ["12345", "*2345"],
    ["1234", "****"],
    ["", ""],
  ])("maskNumber(%j) = %j", (value, masked) => {
    expect(maskNumber(value)).toBe(masked);
  });

  test("request bodies: numbers masked in nested objects and arrays; other fields and non-text kept", () => {
    const body = wire(
      `{"number":"4111111111111234","numberAdditional":"+79001234567","list":[{"number":"2200700012345678"}],"n":{"number":5},"amount":62.50}`,
    ) as WireValue;
    expect(maskRequestBody(body)).toBe(
      `{"number":"************1234","numberAdditional":"********4567","list":[{"number":"************5678"}],"n":{"number":5},"amount":62.50}`,
    );
    expect(maskRequestBody(undefined)).toBeNull();
  });

  test("response bodies: cut after the limit, numbers masked in the text, then redacted", () => {
    expect(RESPONSE_BODY_LIMIT).toBe(16_384);
    const exact = "x".repeat(RESPONSE_BODY_LIMIT);
    expect(maskResponseBody(exact)).toBe(exact);
    const long = `{"number" : "4111111111111234","t":"SECRET"}${"y".repeat(RESPONSE_BODY_LIMIT)}`;
    const stored = maskResponseBody(long, (s) => s.replaceAll("SECRET", "[R]"));
    expect(stored.startsWith(`{"number" : "************1234","t":"[R]"}`)).toBe(true);
    expect(stored.endsWith(`… [cut: ${long.length} characters in all]`)).toBe(true);
  });

  test("InMemoryRecorder finds calls by traceID and clears", () => {
    const recorder = new InMemoryRecorder();
    recorder.record({ traceID: "a" } as ApiCallRecord);
    recorder.record({ traceID: "b" } as ApiCallRecord);
    expect(recorder.byTraceID("a")).toEqual([{ traceID: "a" }]);
    recorder.clear();
    expect(recorder.calls).toEqual([]);
  });
});

describe("webhook bodies refused, with the reason in words", () => {
  const refusal = (text: string) => {
    const e = thrownBy(() => parseWebhookBody(text));
    expect(e).toBeInstanceOf(WebhookBodyError);
    return e as WebhookBodyError;
  };

  test.each([
    ["", "empty", "Webhook body is empty", null],
    ["{", "not-json", /^Webhook body is not JSON: /, null],
    ["[]", "not-an-object", "Webhook body is not a JSON object", null],
    [specError("Warning", "fraud", "x"), "not-success", "Webhook envelope has status Warning (fraud)", TRACE],
    [
      `{"status":"Error","data":null,"traceID":"t-1"}`,
      "not-success",
      "Webhook envelope has status Error (no code)",
      "t-1",
    ],
    [specOk("null"), "no-operation", "Webhook envelope carries no operation object", TRACE],
    [
      specOk(operationJson({ amount: `"x"` })),
      "invalid-operation",
      "webhook operation does not match the expected shape: amount: expected a decimal number",
      TRACE,
    ],
    [nestedError("none", "fraud", "x"), "not-success", "Webhook envelope has status warning (fraud)", TRACE],
  ])("%s -> %s", (text, reason, message, traceID) => {
    const e = refusal(text);
    expect(e).toMatchObject({ name: "WebhookBodyError", reason, traceID });
    if (typeof message === "string") expect(e.message).toBe(message);
    else expect(e.message).toMatch(message);
  });

  test("a bare operation that does not decode has no traceID", () => {
    expect(refusal(operationJson({ status: `"x"` }))).toMatchObject({
      reason: "invalid-operation",
      traceID: null,
    });
  });
});

describe("the balance-shortage reader", () => {
  test.each([
    ["required: 150.5 USDT, available: 20 USDT", "150.5", "20", "USDT"],
    ["Required = 10; on balance - 2", "10", "2", null],
    ["need 7 USDT", "7", null, "USDT"],
    ["available 3,25 RUB", null, "3.25", "RUB"],
    ["Amount is 12 USDT; balance of 1 USDT", "12", "1", "USDT"],
    ["требуется — 5 USDT, остаток: 1", "5", "1", "USDT"],
    ["required USDT 9 available 1 USDT", "9", "1", "USDT"], // the currency before the number
    ["required 9; available RUB 1", "9", "1", "RUB"], // the required amount has none: the available one's
    ["required x, required 4 USDT", "4", null, "USDT"], // the first occurrence without a number is skipped
    ["required 1.2.3", "1.2", null, null],
    ["Required is 5 USDT", "5", null, "USDT"],
    ["required:5 USDT", "5", null, "USDT"],
    ["required USDT  9", "9", null, "USDT"],
    ["required 150USDT", "150", null, "USDT"],
  ])("%j", (message, required, available, currency) => {
    const s = parseBalanceShortage(message);
    expect(s).toEqual({
      required: required === null ? null : new Decimal(required),
      available: available === null ? null : new Decimal(available),
      currency,
    });
  });

  test.each([
    "Not enough money on balance",
    "required: none",
    "balance is low",
    "required documents missing (code 42)",
  ])("%j -> null", (message) => {
    expect(parseBalanceShortage(message)).toBeNull();
  });

  test("the numbers are exact", () => {
    expect(parseBalanceShortage("required 922337203685477.5807 USDT")?.required?.toFixed()).toBe(
      "922337203685477.5807",
    );
  });
});

describe("wire text", () => {
  test("stringifyWire of nothing is null", () => {
    expect(stringifyWire(undefined as unknown as WireValue)).toBe("null");
  });
});
