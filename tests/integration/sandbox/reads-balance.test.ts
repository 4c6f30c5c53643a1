import { Decimal } from "decimal.js";
import type { LosslessNumber } from "lossless-json";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_HISTORY } from "../../../sandbox/defaults";
import type { Sandbox } from "../../../sandbox/index";
import {
  client,
  control,
  dataOf,
  list,
  move,
  n,
  payinBody,
  payoutBody,
  startSandbox,
  str,
  type J,
} from "./helpers";

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.stop());

async function balanceOf(merchant: string): Promise<J> {
  return dataOf(await client(sandbox, merchant).get("/balance"));
}

/** Balance exact text, read with lossless parsing. */
async function exactBalance(merchant: string): Promise<string> {
  const res = await client(sandbox, merchant).get("/balance");
  const match = /"amountInCurrencyBalance":(-?[\d.]+)/.exec(res.text);
  return match?.[1] ?? "";
}

describe("Endpoints › GET /balance", () => {
  it("Rule 2: with no successful operation exchangeRate and amountInCurrencyPayment are 0", async () => {
    const fresh = await startSandbox({ seedDemoHistory: false });
    try {
      const res = await client(fresh, "other").get("/balance");
      expect(dataOf(res)).toEqual({
        amountInCurrencyBalance: 0,
        currencyBalance: "USDT",
        amountInCurrencyPayment: 0,
        currencyPayment: "RUB",
        exchangeRate: 0,
      });
      await control(fresh, "POST", "/merchants/other/balance", { amount: "50" });
      expect(dataOf(await client(fresh, "other").get("/balance"))).toMatchObject({
        amountInCurrencyBalance: 50,
        amountInCurrencyPayment: 0,
        exchangeRate: 0,
      });
    } finally {
      await fresh.stop();
    }
  });

  it("Balance effects: success pay-ins credit, pay-outs reserve at creation, settle at success, release at failure", async () => {
    const api = client(sandbox, "other");
    const start = new Decimal(await exactBalance("other"));
    const payin = dataOf(await api.post("/host2host/payin", payinBody({ amount: n("9600") })));
    expect(await exactBalance("other")).toBe(start.toFixed());
    await move(sandbox, str(payin.id), "in_progress", "success");
    // 9600 / 96 = 100 USDT minus commission 240 / 96 = 2.5 USDT
    const afterPayin = start.plus("97.5");
    expect(await exactBalance("other")).toBe(afterPayin.toFixed());

    const payout = dataOf(await api.post("/host2host/payout", payoutBody({ amount: n("960") })));
    // 960 / 96 = 10 USDT plus 1.5 % commission 14.4 / 96 = 0.15 USDT, reserved at creation
    expect(await exactBalance("other")).toBe(afterPayin.minus("10.15").toFixed());
    await move(sandbox, str(payout.id), "in_progress", "failed");
    expect(await exactBalance("other")).toBe(afterPayin.toFixed());

    const settled = dataOf(await api.post("/host2host/payout", payoutBody({ amount: n("960") })));
    await move(sandbox, str(settled.id), "pending_retry", "in_progress", "success");
    expect(await exactBalance("other")).toBe(afterPayin.minus("10.15").toFixed());
  });

  it("Rule 1: exchangeRate comes from the last successfully completed operation", async () => {
    const api = client(sandbox, "other");
    const first = dataOf(await api.post("/host2host/payin", payinBody({ amount: n("100") })));
    await move(sandbox, str(first.id), "in_progress", "success");
    expect((await balanceOf("other")).exchangeRate).toBe(96);
    await control(sandbox, "PATCH", "/merchants/other", { rate: "97.25" });
    const second = dataOf(await api.post("/host2host/payin", payinBody({ amount: n("100") })));
    expect(second.exchangeRate).toBe(97.25);
    expect((await balanceOf("other")).exchangeRate).toBe(96);
    await move(sandbox, str(second.id), "in_progress", "success");
    const balance = await balanceOf("other");
    expect(balance.exchangeRate).toBe(97.25);
    const exact = await exactBalance("other");
    expect(new Decimal(exact).times("97.25").toDecimalPlaces(4).toNumber()).toBe(
      balance.amountInCurrencyPayment,
    );
    await control(sandbox, "PATCH", "/merchants/other", { rate: "96" });
  });

  it("the demo merchant's balance follows from its seeded operations", async () => {
    const fresh = await startSandbox();
    try {
      type Row = Record<string, LosslessNumber | string>;
      const operations: Row[] = [];
      for (let skip = 0; ; skip += 1000) {
        const page = await client(fresh).post("/operation/operation/list", { skip, take: 1000 });
        expect(page.body.totalNumberRecords).toBe(DEMO_HISTORY.count);
        operations.push(...(page.exact as { data: Row[] }).data);
        if (operations.length >= DEMO_HISTORY.count) break;
      }
      expect(operations).toHaveLength(DEMO_HISTORY.count);
      let expected = new Decimal(0);
      for (const op of operations) {
        const amounts = new Decimal(String(op.amountInCurrencyBalance));
        const commission = new Decimal(String(op.amountComissionInCurrencyBalance));
        if (op.typeOperation === "payIn" && op.status === "success")
          expected = expected.plus(amounts).minus(commission);
        if (op.typeOperation === "payOut" && op.status !== "failed")
          expected = expected.minus(amounts).minus(commission);
      }
      const balance =
        (await client(fresh).get("/balance")).text.match(/"amountInCurrencyBalance":([\d.]+)/)?.[1] ?? "NaN";
      expect(new Decimal(balance).toFixed(4)).toBe(expected.toFixed(4));
      expect(expected.gt(0)).toBe(true);
    } finally {
      await fresh.stop();
    }
  });
});

describe("Endpoints › POST /operation/operation/list", () => {
  it("Rule 1: ordering by dateAdded, descending", async () => {
    const res = await client(sandbox).post("/operation/operation/list", { skip: 0, take: 1000 });
    const dates = list(res.body.data).map((op) => str(op.dateAdded));
    expect(dates.length).toBeGreaterThan(100);
    expect([...dates].sort().reverse()).toEqual(dates);
  });

  it("a new operation comes first", async () => {
    const created = dataOf(await client(sandbox).post("/host2host/payin", payinBody()));
    const res = await client(sandbox).post("/operation/operation/list", { skip: 0, take: 1 });
    expect(list(res.body.data)[0]?.id).toBe(created.id);
  });

  it("Rule 2: paging with skip/take visits every record once and stops when skip + returned >= totalNumberRecords", async () => {
    const api = client(sandbox);
    const seen = new Set<string>();
    let skip = 0;
    let total = Infinity;
    let pages = 0;
    while (skip < total) {
      const res = await api.post("/operation/operation/list", { skip, take: 97 });
      total = Number(res.body.totalNumberRecords);
      const page = list(res.body.data);
      for (const op of page) seen.add(str(op.id));
      skip += page.length;
      pages++;
      if (page.length === 0) break;
    }
    expect(seen.size).toBe(total);
    expect(pages).toBe(Math.ceil(total / 97));
    const beyond = await api.post("/operation/operation/list", { skip: total + 10, take: 10 });
    expect(beyond.body.data).toEqual([]);
    expect(beyond.body.totalNumberRecords).toBe(total);
  });

  it("Limits: the maximum take is configurable", async () => {
    await control(sandbox, "PATCH", "/merchants/demo", { maxTake: 5 });
    try {
      const api = client(sandbox);
      expect(
        list((await api.post("/operation/operation/list", { skip: 0, take: 5 })).body.data),
      ).toHaveLength(5);
      const tooMany = await api.post("/operation/operation/list", { skip: 0, take: 6 });
      expect(tooMany.body).toMatchObject({ codeError: "invalidRequestParameters" });
      expect(tooMany.body.message).toContain("at most 5");
    } finally {
      await control(sandbox, "PATCH", "/merchants/demo", { maxTake: 1000 });
    }
  });

  it("Operation rule: paymentDetailsData is null for pay-outs and an object for pay-ins in list output", async () => {
    const res = await client(sandbox).post("/operation/operation/list", { skip: 0, take: 1000 });
    for (const op of list(res.body.data)) {
      if ((op.typeOperation as unknown) === "payOut") expect(op.paymentDetailsData).toBeNull();
      else expect(op.paymentDetailsData).toBeTypeOf("object");
    }
  });
});

describe("Endpoints › GET /operation/operation/platform/{idPlatform} and the deprecated and internal reads", () => {
  it("reads an operation by platform id", async () => {
    const created = dataOf(await client(sandbox).post("/host2host/payin", payinBody()));
    const read = dataOf(await client(sandbox).get(`/operation/operation/platform/${str(created.id)}`));
    expect(read).toEqual(created);
  });

  it("GET /operation/operation/merhcant/{idTransactionMerchant} (deprecated) returns an array of operations", async () => {
    const body = payinBody();
    const created = dataOf(await client(sandbox).post("/host2host/payin", body));
    const res = await client(sandbox).get(
      `/operation/operation/merhcant/${encodeURIComponent(String(body.idTransactionMerchant))}`,
    );
    expect(res.body.status).toBe("Success");
    expect(list(res.body.data).map((op) => op.id)).toEqual([created.id]);
    expect((await client(sandbox).get("/operation/operation/merhcant/never-used")).body.data).toEqual([]);
  });

  it("GET /operation/operation/platform/payin/{idPlatform} (internal) reads pay-ins only", async () => {
    const payin = dataOf(await client(sandbox).post("/host2host/payin", payinBody()));
    const payout = dataOf(await client(sandbox).post("/host2host/payout", payoutBody({ amount: n("10") })));
    expect(dataOf(await client(sandbox).get(`/operation/operation/platform/payin/${str(payin.id)}`)).id).toBe(
      payin.id,
    );
    const res = await client(sandbox).get(`/operation/operation/platform/payin/${str(payout.id)}`);
    expect(res.body).toMatchObject({ status: "Warning", codeError: "invalidRequestParameters", data: null });
  });
});

describe("Endpoints › GET /masterdata/bank/list", () => {
  it("returns Russian bank names with stable ids, service values left out", async () => {
    const res = await client(sandbox).get("/masterdata/bank/list");
    const banks = list(res.body.data);
    expect(banks.length).toBeGreaterThanOrEqual(35);
    const names = banks.map((bank) => str(bank.name));
    expect(names).toEqual(
      expect.arrayContaining([
        "Сбербанк",
        "Т-Банк",
        "Альфа-Банк",
        "ВТБ",
        "Газпромбанк",
        "Райффайзенбанк",
        "Озон Банк",
        "ПСБ",
      ]),
    );
    expect(names).not.toContain("provider_mockup");
    expect(new Set(banks.map((bank) => bank.id)).size).toBe(banks.length);
    for (const bank of banks) expect(Object.keys(bank)).toEqual(["id", "name"]);
    const again = await client(sandbox, "other").get("/masterdata/bank/list");
    expect(again.body.data).toEqual(res.body.data);
  });
});

describe("Isolation between merchants", () => {
  it("another merchant's operation reads as not found, and never shows in lists or balances", async () => {
    const demoOp = dataOf(await client(sandbox).post("/host2host/payin", payinBody({ amount: n("7777") })));
    const other = client(sandbox, "other");
    const byId = await other.get(`/operation/operation/platform/${str(demoOp.id)}`);
    expect(byId.body).toMatchObject({ status: "Warning", codeError: "invalidRequestParameters", data: null });
    const own = await other.get("/operation/operation/platform/00000000-0000-4000-8000-000000000000");
    expect(byId.body.message).toBe(
      own.body.message?.toString().replace("00000000-0000-4000-8000-000000000000", str(demoOp.id)),
    );
    expect((await other.get(`/operation/operation/platform/payin/${str(demoOp.id)}`)).body.codeError).toBe(
      "invalidRequestParameters",
    );
    const listed = await other.post("/operation/operation/list", { skip: 0, take: 1000 });
    expect(list(listed.body.data).some((op) => op.id === demoOp.id)).toBe(false);
    const before = await exactBalance("other");
    await move(sandbox, str(demoOp.id), "in_progress", "success");
    expect(await exactBalance("other")).toBe(before);
  });
});
