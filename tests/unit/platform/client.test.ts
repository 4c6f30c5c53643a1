import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { PlatformError, PlatformRequestError, parseBalanceShortage } from "@/lib/platform/errors";
import {
  FakePlatform,
  OP_ID,
  TRACE,
  nestedError,
  nestedOk,
  operationJson,
  specError,
  specOk,
} from "./fake-platform";
import { TOKEN, client as clientData, makeClient, payIn, payOut, rejection } from "./helpers";

let fake: FakePlatform;
beforeAll(async () => {
  fake = await FakePlatform.start();
});
afterAll(async () => {
  await fake.close();
});
beforeEach(() => fake.reset());

const dialects = [
  ["spec", specOk, (code: string, msg: string) => specError("Warning", code, msg)],
  [
    "nested",
    (d: string, total?: number) => nestedOk(d, total),
    (code: string, msg: string) => nestedError("none", code, msg),
  ],
] as const;

describe("creation calls", () => {
  test("createPayIn: headers, exact body, typed result, record", async () => {
    fake.route("POST", "/api/host2host/payin", { body: specOk(operationJson()) });
    const { client, recorder } = makeClient(fake);
    const { operation, traceID } = await client.createPayIn(payIn, { actorUserId: "user-7" });

    expect(traceID).toBe(TRACE);
    expect(operation.amount.toFixed()).toBe("62.5");
    expect(operation.paymentDetailsData?.paymentMethod).toBe("sbp");
    const [req] = fake.received;
    expect(req?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(req?.headers["content-type"]).toBe("application/json");
    expect(req?.body).toContain(`"amount":62.5,`);
    expect(recorder.calls).toHaveLength(1);
    expect(recorder.calls[0]).toMatchObject({
      method: "POST",
      path: "/host2host/payin",
      httpStatus: 200,
      envelopeStatus: "Success",
      codeError: null,
      traceID: TRACE,
      actorUserId: "user-7",
      operationId: OP_ID,
      idTransactionMerchant: "order-1",
      dialect: "spec",
      error: null,
      attempt: 1,
    });
    expect(recorder.calls[0]?.latencyMs).toBeGreaterThanOrEqual(0);
  });

  test("createPayOut: recipient number sent in full, masked in the record; token nowhere", async () => {
    fake.route("POST", "/api/host2host/payout", {
      body: specOk(operationJson({ typeOperation: `"payOut"`, paymentDetailsData: "" })),
    });
    const { client, recorder } = makeClient(fake);
    const { operation } = await client.createPayOut(payOut, {
      actorUserId: "user-7",
      operationId: "local-op",
    });

    expect(operation.typeOperation).toBe("payOut");
    expect(operation.paymentDetailsData).toBeNull();
    expect(fake.received[0]?.body).toContain(`"number":"4111111111111234"`);
    const rec = recorder.calls[0];
    expect(rec?.requestBody).toContain(`"number":"************1234"`);
    expect(rec?.requestBody).not.toContain("4111111111111234");
    expect(rec?.requestBody).toContain(`"amount":62.5`);
    expect(rec?.operationId).toBe("local-op"); // context wins over response
    expect(JSON.stringify(recorder.calls)).not.toContain(TOKEN);
  });

  test.each(dialects)("%s dialect: payment forms return the link", async (_d, ok) => {
    const link = `https://form.example/payment/${OP_ID}`;
    fake.route("POST", "/api/paymentform/prepare", {
      body: ok(operationJson({ status: `"precreated"`, linkPaymentForm: `"${link}"` })),
    });
    fake.route("POST", "/api/paymentform/full", {
      body: ok(`{"linkPaymentForm":"${link}","status":"in_progress"}`),
    });
    const { client } = makeClient(fake);
    const prepared = await client.preparePaymentForm({
      ...clientData,
      idTransactionMerchant: "f-1",
      amount: "5000",
    });
    expect(prepared.form.linkPaymentForm).toBe(link);
    expect(prepared.form.operation?.status).toBe("precreated");
    expect(prepared.traceID).toBe(TRACE);
    const full = await client.createFullPaymentForm({
      ...clientData,
      idTransactionMerchant: "f-2",
      amount: "5000",
      paymentMethod: "ecom",
    });
    expect(full.form).toMatchObject({ linkPaymentForm: link, status: "in_progress", operation: null });
    expect(fake.received[0]?.body).not.toContain("paymentMethod");
    expect(fake.received[1]?.body).toContain(`"paymentMethod":"ecom"`);
  });

  test.each(dialects)("%s dialect: business errors are typed and recorded", async (dialect, _ok, err) => {
    fake.route("POST", "/api/host2host/payout", {
      body: err(
        "notEnoughMoneyOnBalance",
        "Not enough money on balance. Required: 150.5 USDT, available: 20 USDT",
      ),
    });
    const { client, recorder } = makeClient(fake);
    const e = (await rejection(client.createPayOut(payOut))) as PlatformError;
    expect(e).toBeInstanceOf(PlatformError);
    expect(e).toMatchObject({
      kind: "business",
      codeError: "notEnoughMoneyOnBalance",
      traceID: TRACE,
      httpStatus: 200,
      outcomeUnknown: false,
    });
    expect(parseBalanceShortage(e.platformMessage)?.required?.toFixed()).toBe("150.5");
    expect(recorder.calls[0]).toMatchObject({
      codeError: "notEnoughMoneyOnBalance",
      traceID: TRACE,
      dialect,
      error: null,
    });
    expect(recorder.calls[0]?.message).toContain("Not enough money");
  });

  test.each([
    "duplicateIdentifier",
    "noSuitableTariffForRequest",
    "noPaymentDetailsAvailable",
    "fraud",
    "invalidRequestParameters",
  ])("%s on pay-in", async (code) => {
    fake.route("POST", "/api/host2host/payin", { body: specError("Warning", code, `${code} happened`) });
    const { client } = makeClient(fake);
    const e = (await rejection(client.createPayIn(payIn))) as PlatformError;
    expect(e.codeError).toBe(code);
    expect(e.kind).toBe("business");
    expect(fake.received).toHaveLength(1); // creations are never retried
  });

  test("AuthError: kind auth; no token in the error", async () => {
    fake.route("GET", "/api/balance", {
      body: specError("AuthError", "internalError", "User data not found"),
    });
    const { client } = makeClient(fake);
    const e = (await rejection(client.getBalance())) as PlatformError;
    expect(e.kind).toBe("auth");
    expect(e.codeError).toBe("internalError");
    expect(fake.received).toHaveLength(1); // business/auth answers are not retried
    expect(`${e.message} ${e.stack} ${JSON.stringify(e)}`).not.toContain(TOKEN);
  });
});

describe("exact money on the wire", () => {
  test.each([
    ["0.0001", "0.0001"],
    ["1.875", "1.875"],
    ["62.50", "62.5"],
    ["5000", "5000"],
    ["922337203685477.5807", "922337203685477.5807"],
  ])("%s goes out as the JSON number %s and comes back exactly", async (amount, wire) => {
    fake.route("POST", "/api/host2host/payin", (req) => {
      const sent = /"amount":([0-9.]+)/.exec(req.body)?.[1] ?? "missing";
      return { body: specOk(operationJson({ amount: sent, amountInitial: sent })) };
    });
    const { client } = makeClient(fake);
    const { operation } = await client.createPayIn({ ...payIn, amount });
    expect(fake.received[0]?.body).toContain(`"amount":${wire},`);
    expect(operation.amount.equals(amount)).toBe(true);
    expect(operation.amount.toFixed()).toBe(wire);
    expect(operation.raw.amount).toBe(wire);
  });

  test.each([
    ["1.23456", "amount"],
    ["1e3", "amount"],
    ["-1", "amount"],
    [Number.NaN, "amount"],
    ["NaN", "amount"],
  ])("%s is refused before anything is sent", async (amount, field) => {
    fake.route("POST", "/api/host2host/payout", { body: specOk(operationJson()) });
    const { client, recorder } = makeClient(fake);
    const e = (await rejection(
      client.createPayOut({ ...payOut, amount: amount as string }),
    )) as PlatformRequestError;
    expect(e).toBeInstanceOf(PlatformRequestError);
    expect(e.field).toBe(field);
    expect(fake.received).toHaveLength(0);
    expect(recorder.calls).toHaveLength(0);
  });
});

describe("reads", () => {
  test.each(dialects)("%s dialect: getOperation", async (dialect, ok) => {
    fake.route("GET", `/api/operation/operation/platform/${OP_ID}`, {
      body: ok(operationJson({ status: `"Success"` })),
    });
    const { client, recorder } = makeClient(fake);
    const { operation, traceID } = await client.getOperation(OP_ID.toUpperCase(), { actorUserId: "u" });
    expect(operation?.status).toBe("success");
    expect(traceID).toBe(TRACE);
    expect(recorder.calls[0]).toMatchObject({
      method: "GET",
      requestBody: null,
      operationId: OP_ID,
      dialect,
    });
  });

  test.each(dialects)("%s dialect: not found -> null (and recorded)", async (_d, _ok, err) => {
    fake.route("GET", `/api/operation/operation/platform/${OP_ID}`, {
      body: err("invalidRequestParameters", "Operation not found"),
    });
    const { client, recorder } = makeClient(fake);
    const r = await client.getOperation(OP_ID);
    expect(r.operation).toBeNull();
    expect(r.traceID).toBe(TRACE);
    expect(recorder.calls[0]?.codeError).toBe("invalidRequestParameters");
  });

  test("a by-id answer about another operation is a protocol error, recorded, never returned", async () => {
    const other = "0b0e4c57-8f61-4d2c-9a53-3f1c2d7e6a10";
    fake.route("GET", `/api/operation/operation/platform/${OP_ID}`, {
      body: specOk(operationJson({ id: `"${other}"` })),
    });
    const { client, recorder } = makeClient(fake);
    const e = (await rejection(client.getOperation(OP_ID))) as Error;
    expect(e).toMatchObject({ kind: "protocol", traceID: TRACE });
    expect(e.message).toContain(`expected ${OP_ID}, the operation asked for`);
    expect(recorder.calls[0]?.error).toContain("expected");
  });

  test("a by-id answer with an amount in exponent notation is a protocol error, never expanded", async () => {
    fake.route("GET", `/api/operation/operation/platform/${OP_ID}`, {
      body: specOk(operationJson({ amount: "1e300000000" })),
    });
    const { client } = makeClient(fake);
    const e = (await rejection(client.getOperation(OP_ID))) as Error;
    expect(e).toMatchObject({ kind: "protocol", traceID: TRACE });
    expect(e.message).toContain("amount: expected a decimal number");
  });

  test("getOperation refuses a malformed id locally", async () => {
    const { client } = makeClient(fake);
    const e = await rejection(client.getOperation("../balance"));
    expect(e).toBeInstanceOf(PlatformRequestError);
    expect(fake.received).toHaveLength(0);
  });

  test("getPayInInternal uses the debugging path", async () => {
    fake.route("GET", `/api/operation/operation/platform/payin/${OP_ID}`, { body: specOk(operationJson()) });
    const { client } = makeClient(fake);
    expect((await client.getPayInInternal(OP_ID)).operation?.id).toBe(OP_ID);
  });

  test("deprecated by-merchant-id read: path spelled merhcant, id encoded", async () => {
    fake.route("GET", "/api/operation/operation/merhcant/order%2F1%20x", {
      body: specOk(`[${operationJson()},${operationJson()}]`),
    });
    const { client, recorder } = makeClient(fake);
    const r = await client.getOperationsByMerchantIdDeprecated("order/1 x");
    expect(r.operations).toHaveLength(2);
    expect(recorder.calls[0]?.idTransactionMerchant).toBe("order/1 x");
  });

  test.each(["spec", "nested"])("%s dialect: listOperations with totalNumberRecords", async (dialect) => {
    const page = `[${operationJson({ status: `"success"` })},${operationJson({ typeOperation: `"payOut"`, paymentDetailsData: "null" })}]`;
    fake.route("POST", "/api/operation/operation/list", {
      body: dialect === "spec" ? specOk(page, `,"totalNumberRecords":57`) : nestedOk(page, 57),
    });
    const { client, recorder } = makeClient(fake);
    const r = await client.listOperations({ skip: 10, take: 2 });
    expect(r.totalNumberRecords).toBe(57);
    expect(r.operations.map((o) => o.typeOperation)).toEqual(["payIn", "payOut"]);
    expect(fake.received[0]?.body).toBe(`{"skip":10,"take":2}`);
    expect(recorder.calls[0]?.operationId).toBeNull();
  });

  test("listOperations: an item that does not decode is set aside with its id, reason and raw JSON; the others are read", async () => {
    const other = "0b2f3a1e-5c4d-4e6f-8a9b-1c2d3e4f5a6b";
    const page = [
      operationJson({ status: `"success"` }),
      // the spec's status list is not complete
      operationJson({ id: `"${other.toUpperCase()}"`, status: `"cancelled"` }),
      operationJson({ id: `"not-a-uuid"`, amount: `"1,5"`, idTransactionMerchant: "null" }),
      `"just text"`,
    ].join(",");
    fake.route("POST", "/api/operation/operation/list", {
      body: specOk(`[${page}]`, `,"totalNumberRecords":57`),
    });
    const { client, recorder } = makeClient(fake);
    const r = await client.listOperations({ skip: 0, take: 4 });
    expect(r.totalNumberRecords).toBe(57);
    expect(r.operations.map((o) => [o.id, o.status])).toEqual([[OP_ID, "success"]]);
    expect(r.unreadable).toEqual([
      {
        id: other,
        reason: 'status: unknown operation status "cancelled"',
        fields: ["status"],
        raw: expect.objectContaining({ id: other.toUpperCase(), status: "cancelled", amount: "62.50" }),
      },
      {
        id: null,
        reason: expect.stringMatching(
          /^id: expected a UUID; idTransactionMerchant: .*; amount: expected a decimal number$/,
        ),
        fields: ["id", "idTransactionMerchant", "amount"],
        raw: expect.objectContaining({ id: "not-a-uuid", amount: "1,5", idTransactionMerchant: null }),
      },
      { id: null, reason: "(root): expected an object", fields: [], raw: "just text" },
    ]);
    expect(recorder.calls[0]?.error).toBeNull();
  });

  test("listOperations: a page that is no list at all is a protocol error", async () => {
    fake.route("POST", "/api/operation/operation/list", { body: specOk(`"x"`, `,"totalNumberRecords":1`) });
    const { client } = makeClient(fake);
    const e = (await rejection(client.listOperations({ skip: 0, take: 10 }))) as PlatformError;
    expect(e.kind).toBe("protocol");
    expect(e.message).toContain("expected an array");
  });

  test("listOperations without totalNumberRecords is a protocol error (paging would guess)", async () => {
    fake.route("POST", "/api/operation/operation/list", { body: specOk("[]") });
    const { client } = makeClient(fake);
    const e = (await rejection(client.listOperations({ skip: 0, take: 10 }))) as PlatformError;
    expect(e.kind).toBe("protocol");
    expect(e.message).toContain("totalNumberRecords");
  });

  test.each(dialects)("%s dialect: balance", async (_d, ok) => {
    fake.route("GET", "/api/balance", {
      body: ok(
        `{"amountInCurrencyBalance":922337203685477.5807,"currencyBalance":"USDT","amountInCurrencyPayment":86469112845513.5195,"currencyPayment":"RUB","exchangeRate":93.75}`,
      ),
    });
    const { client } = makeClient(fake);
    const { balance, balances } = await client.getBalance();
    expect(balance.amountInCurrencyBalance.toFixed()).toBe("922337203685477.5807");
    expect(balance.currencyPayment).toBe("RUB");
    expect(balances).toHaveLength(1);
  });

  test.each(dialects)("%s dialect: banks as objects or strings", async (_d, ok) => {
    fake.route(
      "GET",
      "/api/masterdata/bank/list",
      { body: ok(`[{"id":"d9428888-122b-11e1-b85c-61cd3cbb3210","name":"Sber"}]`) },
      { body: ok(`["Sber","VTB"]`) },
    );
    const { client } = makeClient(fake);
    expect((await client.getBanks()).banks).toEqual([
      { id: "d9428888-122b-11e1-b85c-61cd3cbb3210", name: "Sber" },
    ]);
    expect((await client.getBanks()).banks).toEqual([
      { id: null, name: "Sber" },
      { id: null, name: "VTB" },
    ]);
  });

  test("success envelope with data of the wrong shape -> protocol error, recorded with the reason", async () => {
    fake.route("GET", `/api/operation/operation/platform/${OP_ID}`, {
      body: specOk(operationJson({ amount: `"lots"` })),
    });
    const { client, recorder } = makeClient(fake);
    const e = (await rejection(client.getOperation(OP_ID))) as PlatformError;
    expect(e).toMatchObject({ kind: "protocol", traceID: TRACE, httpStatus: 200 });
    expect(recorder.calls[0]?.error).toContain("amount");
    expect(recorder.calls).toHaveLength(1); // a bad shape is not retried
  });
});
