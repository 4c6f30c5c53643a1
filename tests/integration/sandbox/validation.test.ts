import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Sandbox } from "../../../sandbox/index";
import { client, formBody, n, payinBody, payoutBody, startSandbox } from "./helpers";

/** Every field of every request: invalidRequestParameters with a message naming the field. */

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.stop());

type Case = [label: string, patch: Record<string, unknown>, field: string];

const without = (field: string): Record<string, unknown> => ({ [field]: undefined });

const commonCases: Case[] = [
  ["idTransactionMerchant missing", without("idTransactionMerchant"), "idTransactionMerchant"],
  ["idTransactionMerchant not a string", { idTransactionMerchant: n("42") }, "idTransactionMerchant"],
  ["idTransactionMerchant empty", { idTransactionMerchant: "" }, "idTransactionMerchant"],
  ["amount missing", without("amount"), "amount"],
  ["amount written as a JSON string", { amount: "5000" }, "amount"],
  ["amount with an exponent", { amount: n("1e3") }, "amount"],
  ["amount negative", { amount: n("-10") }, "amount"],
  ["amount zero", { amount: n("0") }, "amount"],
  ["amount zero with decimals", { amount: n("0.0000") }, "amount"],
  ["amount with five decimals", { amount: n("10.12345") }, "amount"],
  ["amount with five decimals ending in zero", { amount: n("10.10000") }, "amount"],
  ["amount null", { amount: null }, "amount"],
  ["amount boolean", { amount: true }, "amount"],
  ["clientID missing", without("clientID"), "clientID"],
  ["clientID a number", { clientID: n("12") }, "clientID"],
  ["clientIP missing", without("clientIP"), "clientIP"],
  ["clientIP not an address", { clientIP: "localhost" }, "clientIP"],
  ["clientIP out of range", { clientIP: "256.1.1.1" }, "clientIP"],
  ["clientDateCreated missing", without("clientDateCreated"), "clientDateCreated"],
  ["clientDateCreated not ISO-8601", { clientDateCreated: "01.03.2024" }, "clientDateCreated"],
  ["clientDateCreated an impossible day", { clientDateCreated: "2024-02-30" }, "clientDateCreated"],
  ["clientDateCreated a number", { clientDateCreated: n("1709287200") }, "clientDateCreated"],
  [
    "integrationMerhcnatData not an object",
    { integrationMerhcnatData: "http://x" },
    "integrationMerhcnatData",
  ],
  [
    "integrationMerhcnatData.webHook not a string",
    { integrationMerhcnatData: { webHook: n("1") } },
    "integrationMerhcnatData.webHook",
  ],
];

const methodCases: Case[] = [
  ["paymentMethod missing", without("paymentMethod"), "paymentMethod"],
  ["paymentMethod unknown", { paymentMethod: "bitcoin" }, "paymentMethod"],
  ["paymentMethod not a string", { paymentMethod: n("1") }, "paymentMethod"],
];

const payoutCases: Case[] = [
  ...["transgran", "transgranSBP", "nspk", "ecom", "mobile"].map((method): Case => [
    `paymentMethod ${method} (pay-in only)`,
    { paymentMethod: method },
    "paymentMethod",
  ]),
  ["number missing", without("number"), "number"],
  ["number not digits for toCard", { number: "card-1234" }, "number"],
  ["number not a phone for sbp", { paymentMethod: "sbp", number: "2200700012345678" }, "number"],
  [
    "number not 20 digits for toAccount",
    { paymentMethod: "toAccount", number: "4081781000000000" },
    "number",
  ],
  ["bankName missing", without("bankName"), "bankName"],
  ["bankName empty", { bankName: "" }, "bankName"],
  ["nameMediator null", { nameMediator: null }, "nameMediator"],
  ["nameMediator a number", { nameMediator: n("5") }, "nameMediator"],
];

const formCases: Case[] = [
  [
    "redirectGeneralURL not a string",
    { integrationMerhcnatData: { redirectGeneralURL: n("1") } },
    "integrationMerhcnatData.redirectGeneralURL",
  ],
  [
    "redirectSuccessURL not a string",
    { integrationMerhcnatData: { redirectSuccessURL: true } },
    "integrationMerhcnatData.redirectSuccessURL",
  ],
  [
    "redirectFailURL not a string",
    { integrationMerhcnatData: { redirectFailURL: [] } },
    "integrationMerhcnatData.redirectFailURL",
  ],
];

function withPatch(base: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  const body = { ...base, ...patch };
  for (const [key, value] of Object.entries(patch)) if (value === undefined) delete body[key];
  return body;
}

async function expectInvalid(path: string, body: unknown, field: string): Promise<void> {
  const res = await client(sandbox).post(path, body);
  expect(res.httpStatus).toBe(200);
  expect(res.body).toMatchObject({ status: "Warning", data: null, codeError: "invalidRequestParameters" });
  expect(res.body.message).toContain(`'${field}'`);
}

describe("Endpoints › POST /host2host/payin › request body", () => {
  test.each([...methodCases, ...commonCases])(
    "%s -> invalidRequestParameters naming the field",
    (_label, patch, field) => expectInvalid("/host2host/payin", withPatch(payinBody(), patch), field),
  );

  test.each([
    ["IPv6 clientIP", { clientIP: "2001:db8::7" }],
    ["date-only clientDateCreated", { clientDateCreated: "2023-12-31" }],
    ["seven fractional digits and an offset", { clientDateCreated: "2023-11-18T14:53:31.0796033+03:00" }],
    ["amount with four decimals", { amount: n("62.5001") }],
    ["amount with trailing zeros within four decimals", { amount: n("80.00") }],
    ["method in another casing", { paymentMethod: "ToCard" }],
    ["absent integrationMerhcnatData", { integrationMerhcnatData: undefined }],
  ])("accepts %s", async (_label, patch) => {
    const res = await client(sandbox).post("/host2host/payin", withPatch(payinBody(), patch));
    expect(res.body.status).toBe("Success");
  });

  test("a body that is not an object -> invalidRequestParameters", async () => {
    const res = await client(sandbox).post("/host2host/payin", [1, 2]);
    expect(res.body.codeError).toBe("invalidRequestParameters");
  });
});

describe("Endpoints › POST /host2host/payout › Rule 6: malformed request names the field", () => {
  test.each([...methodCases, ...commonCases, ...payoutCases])(
    "%s -> invalidRequestParameters naming the field",
    (_label, patch, field) => expectInvalid("/host2host/payout", withPatch(payoutBody(), patch), field),
  );
});

describe("Endpoints › POST /paymentform/prepare › request body", () => {
  test.each([...commonCases, ...formCases])(
    "%s -> invalidRequestParameters naming the field",
    (_label, patch, field) => expectInvalid("/paymentform/prepare", withPatch(formBody(), patch), field),
  );
});

describe("Endpoints › POST /paymentform/full › request body", () => {
  test.each([...methodCases, ...commonCases, ...formCases])(
    "%s -> invalidRequestParameters naming the field",
    (_label, patch, field) =>
      expectInvalid("/paymentform/full", withPatch(formBody({ paymentMethod: "sbp" }), patch), field),
  );
});

describe("Endpoints › POST /operation/operation/list › request body", () => {
  test.each([
    ["skip missing", { take: n("10") }, "skip"],
    ["take missing", { skip: n("0") }, "take"],
    ["skip negative", { skip: n("-1"), take: n("10") }, "skip"],
    ["take a string", { skip: n("0"), take: "10" }, "take"],
    ["take a decimal", { skip: n("0"), take: n("10.5") }, "take"],
    ["take with an exponent", { skip: n("0"), take: n("1e2") }, "take"],
    ["take zero", { skip: n("0"), take: n("0") }, "take"],
    ["take above the configured maximum", { skip: n("0"), take: n("1001") }, "take"],
  ])("%s -> invalidRequestParameters naming the field", (_label, body, field) =>
    expectInvalid("/operation/operation/list", body, field),
  );
});

describe("Endpoints › GET /operation/operation/platform/{idPlatform}", () => {
  test("an idPlatform that is not a UUID -> invalidRequestParameters", async () => {
    const res = await client(sandbox).get("/operation/operation/platform/12345");
    expect(res.body).toMatchObject({ status: "Warning", codeError: "invalidRequestParameters" });
    expect(res.body.message).toContain("idPlatform");
  });
});
