// The mirror's comparable view of an operation (lib/operations/mirror/mirror-fields.ts) and the final
// statuses (lib/operations/status.ts), written out: which fields are compared, in which groups, how
// amounts and JSON are made comparable, what a snapshot that lacks a field says about it.
import { describe, expect, it, test } from "vitest";
import { Decimal } from "@/lib/money/decimal";
import {
  HINT_FIELDS,
  LIFECYCLE_FIELDS,
  MIRRORED_FIELDS,
  MONEY_FIELDS,
  comparableDecimal,
  comparableJson,
  differingFields,
  fieldsOfSnapshot,
  pickFields,
  type MirrorFields,
} from "@/lib/operations/mirror/mirror-fields";
import { FINAL_STATUSES_SQL, finalStatuses, isFinal } from "@/lib/operations/status";
import { decodeOperation } from "@/lib/platform/schemas";
import { parseWireJson } from "@/lib/platform/wire";

const ID = "00000000-0000-4000-8000-0000000000f1";
const operation = (extra: string) =>
  decodeOperation(
    parseWireJson(`{"id":"${ID}","dateAdded":"2026-11-20T10:00:00.000Z","dateUpdated":null,
      "typeOperation":"payIn","status":"in_progress","idTransactionMerchant":"order-1",
      "amountInitial":1500.5,"amountRandomized":1500.51,"amount":1500.50001,"amountComission":45.015,
      "currency":"RUB","amountInCurrencyBalance":15.7,"amountComissionInCurrencyBalance":0.4714,
      "exchangeRate":95.123456789${extra}}`),
  );

describe("the mirrored fields and their groups", () => {
  it("every compared field, in order", () => {
    expect([...MIRRORED_FIELDS]).toEqual([
      "status",
      "dateUpdated",
      "dateAdded",
      "typeOperation",
      "idTransactionMerchant",
      "amountInitial",
      "amountRandomized",
      "amount",
      "amountComission",
      "currency",
      "amountInCurrencyBalance",
      "amountComissionInCurrencyBalance",
      "exchangeRate",
      "paymentMethod",
      "detailsBankName",
      "detailsNameMediator",
      "detailsNumber",
      "detailsNumberAdditional",
      "detailsQrCode",
      "linkPaymentForm",
    ]);
  });

  it("money, hint and lifecycle fields", () => {
    expect([...MONEY_FIELDS]).toEqual([
      "amountInitial",
      "amountRandomized",
      "amount",
      "amountComission",
      "currency",
      "amountInCurrencyBalance",
      "amountComissionInCurrencyBalance",
      "exchangeRate",
    ]);
    expect([...HINT_FIELDS]).toEqual(["status", "dateUpdated"]);
    expect([...LIFECYCLE_FIELDS]).toEqual([
      "status",
      "dateUpdated",
      "amountComission",
      "amountInCurrencyBalance",
      "amountComissionInCurrencyBalance",
      "exchangeRate",
      "paymentMethod",
      "detailsBankName",
      "detailsNameMediator",
      "detailsNumber",
      "detailsNumberAdditional",
      "detailsQrCode",
    ]);
  });
});

describe("comparable values", () => {
  test.each([
    [null, undefined, null],
    ["1500.50000", undefined, "1500.5"],
    ["0.00005", undefined, "0.0001"], // half up at the column's 4 digits
    ["0.00004", undefined, "0"],
    ["-2.5", undefined, "-2.5"],
    ["95.123456789", 8, "95.12345679"],
    ["95.123456789", undefined, "95.1235"],
  ] as const)("comparableDecimal(%j, %j) -> %j", (value, scale, expected) => {
    expect(comparableDecimal(value, scale)).toBe(expected);
  });

  it("comparableDecimal takes a Decimal too", () => {
    expect(comparableDecimal(new Decimal("7.000"))).toBe("7");
  });

  test.each([
    [null, null],
    [undefined, null],
    ["text", '"text"'],
    [0, "0"],
    [false, "false"],
    [{ b: 1, a: { d: [3, { z: 1, y: null }], c: 2 } }, '{"a":{"c":2,"d":[3,{"y":null,"z":1}]},"b":1}'],
    [[{ b: 1, a: 2 }, "x"], '[{"a":2,"b":1},"x"]'],
    [{ B: 1, a: 2, A: 3 }, '{"A":3,"B":1,"a":2}'],
  ])("comparableJson(%j) -> %s", (value, expected) => {
    expect(comparableJson(value)).toBe(expected);
  });

  it("a jsonb column and the wire compare equal whatever the key order", () => {
    expect(comparableJson({ x: 1, y: { q: 2, p: 1 } })).toBe(comparableJson({ y: { p: 1, q: 2 }, x: 1 }));
  });
});

describe("what a snapshot says", () => {
  it("a pay-in with details and a payment-form link: every field, amounts at their column's scale", () => {
    const op = operation(
      `,"paymentDetailsData":{"paymentMethod":"toCard","bankName":"Sberbank","nameMediator":"Ivan I.",` +
        `"number":"4276000000000001","numberAdditional":{"b":1,"a":2},"qRcode":null},` +
        `"linkPaymentForm":"https://pay.example/f/1"`,
    );
    expect(fieldsOfSnapshot(op)).toEqual({
      status: "in_progress",
      dateUpdated: null,
      dateAdded: "2026-11-20T10:00:00.000Z",
      typeOperation: "payIn",
      idTransactionMerchant: "order-1",
      amountInitial: "1500.5",
      amountRandomized: "1500.51",
      amount: "1500.5",
      amountComission: "45.015",
      currency: "RUB",
      amountInCurrencyBalance: "15.7",
      amountComissionInCurrencyBalance: "0.4714",
      exchangeRate: "95.12345679",
      paymentMethod: "toCard",
      detailsBankName: "Sberbank",
      detailsNameMediator: "Ivan I.",
      detailsNumber: "4276000000000001",
      detailsNumberAdditional: '{"a":"2","b":"1"}', // wire numbers kept as their exact text
      detailsQrCode: null,
      linkPaymentForm: "https://pay.example/f/1",
    });
  });

  it("details without a method say nothing of the method; no link says nothing of the link", () => {
    const op = operation(
      `,"paymentDetailsData":{"paymentMethod":null,"bankName":"Sberbank","nameMediator":null,` +
        `"number":"1234","numberAdditional":null,"qRcode":null}`,
    );
    const fields = fieldsOfSnapshot(op);
    expect("paymentMethod" in fields).toBe(false);
    expect("linkPaymentForm" in fields).toBe(false);
    expect(fields).toMatchObject({
      detailsBankName: "Sberbank",
      detailsNameMediator: null,
      detailsNumber: "1234",
    });
  });

  it("a pay-in read without details says nothing of them", () => {
    const fields = fieldsOfSnapshot(operation(""));
    for (const f of ["paymentMethod", "detailsBankName", "detailsNumber", "detailsQrCode"]) {
      expect(f in fields).toBe(false);
    }
    expect(fields.dateAdded).toBe("2026-11-20T10:00:00.000Z");
  });

  it("a dated snapshot gives its dateUpdated as ISO text", () => {
    const op = decodeOperation(
      parseWireJson(
        `{"id":"${ID}","dateAdded":"2026-11-20T10:00:00Z","dateUpdated":"2026-11-20T10:05:00Z","typeOperation":"payOut",` +
          `"status":"success","idTransactionMerchant":"po-1","amountInitial":1,"amount":1,"currency":"RUB"}`,
      ),
    );
    expect(fieldsOfSnapshot(op)).toMatchObject({
      dateUpdated: "2026-11-20T10:05:00.000Z",
      amountComission: null,
    });
  });

  it("differingFields: only what the snapshot carries, with another value, in the mirror's order", () => {
    const mirror = Object.fromEntries(MIRRORED_FIELDS.map((f) => [f, "m"])) as MirrorFields;
    expect(differingFields(mirror, {})).toEqual([]);
    expect(differingFields(mirror, { status: "m", amount: "m" })).toEqual([]);
    expect(differingFields(mirror, { linkPaymentForm: null, amount: "x", status: "y" })).toEqual([
      "status",
      "amount",
      "linkPaymentForm",
    ]);
  });

  it("pickFields: the named ones, null for what the view lacks", () => {
    expect(
      pickFields({ amount: "1", currency: "RUB", status: "success" }, ["amount", "exchangeRate"]),
    ).toEqual({
      amount: "1",
      exchangeRate: null,
    });
  });
});

describe("final statuses", () => {
  it("success and failed, and the same list for SQL", () => {
    expect([...finalStatuses]).toEqual(["success", "failed"]);
    expect(FINAL_STATUSES_SQL).toBe("'success', 'failed'");
  });

  test.each([
    ["success", true],
    ["failed", true],
    ["in_progress", false],
    ["pending_retry", false],
    ["created", false],
    ["nonsense", false],
  ])("isFinal(%s) -> %s", (status, final) => {
    expect(isFinal(status)).toBe(final);
  });
});
