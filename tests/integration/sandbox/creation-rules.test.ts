import { afterAll, beforeAll, describe, expect, it, test } from "vitest";
import type { Sandbox } from "../../../sandbox/index";
import {
  CLIENT,
  client,
  control,
  dataOf,
  formBody,
  move,
  n,
  payinBody,
  payoutBody,
  startSandbox,
} from "./helpers";

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.stop());

describe("Endpoints › POST /host2host/payin", () => {
  it("Rule 2: success gives a payIn operation in status created with paymentDetailsData", async () => {
    const body = payinBody({ paymentMethod: "sbp", amount: n("62.50") });
    const op = dataOf(await client(sandbox).post("/host2host/payin", body));
    expect(op).toMatchObject({
      typeOperation: "payIn",
      status: "created",
      idTransactionMerchant: body.idTransactionMerchant,
      currency: "RUB",
    });
    expect(op.dateAdded).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(op.dateUpdated).toBe(op.dateAdded);
    expect(op.paymentDetailsData).toMatchObject({
      paymentMethod: "sbp",
      numberAdditional: null,
      qRcode: null,
    });
    expect(op.paymentDetailsData?.number).toMatch(/^\+79\d{9}$/);
    expect(op.amountInitial).toBe(62.5);
    expect(op.amountRandomized).toBe(62.5);
  });

  it("Rule 3: a repeated idTransactionMerchant gives duplicateIdentifier, while another merchant may use it", async () => {
    const body = payinBody();
    expect((await client(sandbox).post("/host2host/payin", body)).body.status).toBe("Success");
    const again = await client(sandbox).post("/host2host/payin", { ...body, clientID: "client-other" });
    expect(again.body).toMatchObject({ status: "Warning", codeError: "duplicateIdentifier", data: null });
    const payoutSameId = await client(sandbox).post(
      "/host2host/payout",
      payoutBody({ idTransactionMerchant: body.idTransactionMerchant }),
    );
    expect(payoutSameId.body.codeError).toBe("duplicateIdentifier");
    const otherMerchant = await client(sandbox, "other").post("/host2host/payin", body);
    expect(otherMerchant.body.status).toBe("Success");
  });

  it("Rule 4: a method outside the tariff gives noSuitableTariffForRequest", async () => {
    const kzt = await client(sandbox).post("/host2host/payin", payinBody({ paymentMethod: "kzt_c2c" }));
    expect(kzt.body).toMatchObject({ status: "Warning", codeError: "noSuitableTariffForRequest" });
    const outsideOther = await client(sandbox, "other").post(
      "/host2host/payin",
      payinBody({ paymentMethod: "nspk" }),
    );
    expect(outsideOther.body.codeError).toBe("noSuitableTariffForRequest");
  });

  it("Rule 5: an exhausted pool gives noPaymentDetailsAvailable; details come back at the final status", async () => {
    await control(sandbox, "PATCH", "/merchants/demo", { detailsPoolOverrides: { vtb_vtb: 2 } });
    const api = client(sandbox);
    const first = dataOf(await api.post("/host2host/payin", payinBody({ paymentMethod: "vtb_vtb" })));
    const second = dataOf(await api.post("/host2host/payin", payinBody({ paymentMethod: "vtb_vtb" })));
    expect(first.paymentDetailsData?.bankName).toBe("ВТБ");
    expect(first.paymentDetailsData?.number).not.toBe(second.paymentDetailsData?.number);
    const third = await api.post("/host2host/payin", payinBody({ paymentMethod: "vtb_vtb" }));
    expect(third.body).toMatchObject({ status: "Warning", codeError: "noPaymentDetailsAvailable" });
    await move(sandbox, String(first.id), "in_progress");
    expect((await api.post("/host2host/payin", payinBody({ paymentMethod: "vtb_vtb" }))).body.codeError).toBe(
      "noPaymentDetailsAvailable",
    );
    await move(sandbox, String(first.id), "failed");
    const fourth = dataOf(await api.post("/host2host/payin", payinBody({ paymentMethod: "vtb_vtb" })));
    expect(fourth.paymentDetailsData?.number).toBe(first.paymentDetailsData?.number);
  });

  it("Rule 5: a mono-bank method whose bank has no details gives noPaymentDetailsAvailable", async () => {
    await control(sandbox, "PATCH", "/merchants/demo", { detailsPoolOverrides: { raif_raif: 0 } });
    const res = await client(sandbox).post("/host2host/payin", payinBody({ paymentMethod: "raif_raif" }));
    expect(res.body.codeError).toBe("noPaymentDetailsAvailable");
  });

  it("paymentDetailsData rule 1: details are single-use, different for concurrent operations", async () => {
    const api = client(sandbox);
    const numbers = new Set<unknown>();
    for (let index = 0; index < 5; index++)
      numbers.add(
        dataOf(await api.post("/host2host/payin", payinBody({ paymentMethod: "toAccount" })))
          .paymentDetailsData?.number,
      );
    expect(numbers.size).toBe(5);
    for (const number of numbers) expect(number).toMatch(/^\d{20}$/);
  });
});

describe("Endpoints › POST /host2host/payin › Rules 1 and 6: anti-fraud", () => {
  test.each([
    ["clientIP 0.0.0.0", { clientIP: "0.0.0.0" }],
    ["clientIP ::", { clientIP: "::" }],
    ["clientIP 127.0.0.1", { clientIP: "127.0.0.1" }],
    // the same dummies spelled otherwise: compared as addresses, not as text
    ["clientIP ::0", { clientIP: "::0" }],
    ["clientIP 0:0::0", { clientIP: "0:0::0" }],
    ["clientIP ::ffff:0.0.0.0", { clientIP: "::ffff:0.0.0.0" }],
    ["clientIP 0:0:0:0:0:0:0:1", { clientIP: "0:0:0:0:0:0:0:1" }],
    ["an empty clientID", { clientID: "" }],
    ["clientID '0'", { clientID: "0" }],
    ["clientID 'test'", { clientID: "test" }],
    ["clientID 'undefined'", { clientID: "undefined" }],
    ["clientID 'string' (Swagger placeholder)", { clientID: "string" }],
    ["a nil UUID clientID", { clientID: "00000000-0000-0000-0000-000000000000" }],
    ["clientDateCreated in the future", { clientDateCreated: "2999-01-01T00:00:00Z" }],
    ["clientDateCreated 0001-01-01", { clientDateCreated: "0001-01-01T00:00:00Z" }],
  ])("dummy client data (%s) gives fraud", async (_label, patch) => {
    const payin = await client(sandbox).post("/host2host/payin", payinBody(patch));
    expect(payin.body).toMatchObject({ status: "Warning", codeError: "fraud", data: null });
    const payout = await client(sandbox).post("/host2host/payout", payoutBody(patch));
    expect(payout.body.codeError).toBe("fraud");
    const form = await client(sandbox).post("/paymentform/prepare", formBody(patch));
    expect(form.body.codeError).toBe("fraud");
  });

  it("a client exceeding the rate of creations per minute gives fraud", async () => {
    await control(sandbox, "PATCH", "/merchants/other", { fraudRatePerMinute: 3 });
    const api = client(sandbox, "other");
    const clientID = "client-busy-1";
    for (let index = 0; index < 3; index++) {
      expect((await api.post("/host2host/payin", payinBody({ clientID }))).body.status).toBe("Success");
    }
    const fourth = await api.post("/host2host/payin", payinBody({ clientID }));
    expect(fourth.body).toMatchObject({ codeError: "fraud" });
    expect(fourth.body.message).toMatch(/rate/);
    expect((await api.post("/host2host/payin", payinBody({ clientID: "client-calm-2" }))).body.status).toBe(
      "Success",
    );
  });
});

describe("Endpoints › POST /host2host/payout", () => {
  it("Rule 4: success gives a payOut operation in created, without paymentDetailsData", async () => {
    const op = dataOf(await client(sandbox).post("/host2host/payout", payoutBody({ amount: n("955") })));
    expect(op).toMatchObject({
      typeOperation: "payOut",
      status: "created",
      amount: 955,
      amountComission: 19.1,
      amountInCurrencyBalance: 10,
      amountComissionInCurrencyBalance: 0.2,
    });
    expect("paymentDetailsData" in op).toBe(false);
    const read = dataOf(await client(sandbox).get(`/operation/operation/platform/${String(op.id)}`));
    expect(read.paymentDetailsData).toBeNull();
  });

  it("Rule 1: toCard, sbp, toAccount and the eight mono-bank methods are accepted", async () => {
    const numbers: Record<string, string> = { sbp: "+79001234567", toAccount: "40817810000000000001" };
    for (const method of [
      "toCard",
      "sbp",
      "toAccount",
      "sber_sber",
      "tbank_tbank",
      "alfa_alfa",
      "vtb_vtb",
      "ozon_ozon",
      "gazprom_gazprom",
      "psb_psb",
      "raif_raif",
    ]) {
      const res = await client(sandbox).post(
        "/host2host/payout",
        payoutBody({ paymentMethod: method, amount: n("10"), number: numbers[method] ?? "2200700012345678" }),
      );
      expect(res.body.status, method).toBe("Success");
    }
  });

  it("nameMediator may be absent or an empty string", async () => {
    const absent = payoutBody();
    delete absent.nameMediator;
    expect((await client(sandbox).post("/host2host/payout", absent)).body.status).toBe("Success");
    expect(
      (await client(sandbox).post("/host2host/payout", payoutBody({ nameMediator: "" }))).body.status,
    ).toBe("Success");
  });

  it("Rule 3: a bankName outside the directory is accepted at creation (the provider decides later)", async () => {
    const res = await client(sandbox).post(
      "/host2host/payout",
      payoutBody({ bankName: "Банк Несуществующий", amount: n("10") }),
    );
    expect(res.body.status).toBe("Success");
  });

  it("Rule 5: notEnoughMoneyOnBalance states the required and available amounts with the balance currency", async () => {
    const api = client(sandbox, "other");
    await control(sandbox, "POST", "/merchants/other/balance", { amount: "12.34" });
    const res = await api.post("/host2host/payout", payoutBody({ amount: n("9600") }));
    expect(res.body).toMatchObject({ status: "Warning", codeError: "notEnoughMoneyOnBalance", data: null });
    // 9600 RUB / 96 = 100 USDT + 1.5 % commission (144 RUB / 96 = 1.5 USDT)
    expect(res.body.message).toBe(
      "Not enough money on balance: required 101.5000 USDT, available 12.3400 USDT",
    );
  });
});

describe("Resources › Operation › amounts", () => {
  it("commission and conversion are exact to four decimals (ROUND_HALF_EVEN), written as plain JSON numbers", async () => {
    const res = await client(sandbox).post("/host2host/payin", payinBody({ amount: n("1234.5678") }));
    // 3 % of 1234.5678 = 37.037034 -> 37.037; 1234.5678 / 95.5 = 12.92740104... -> 12.9274; 37.037 / 95.5 = 0.38782198... -> 0.3878
    expect(res.text).toContain(
      '"amountInitial":1234.5678,"amountRandomized":1234.5678,"amount":1234.5678,"amountComission":37.037,',
    );
    expect(res.text).toContain(
      '"amountInCurrencyBalance":12.9274,"amountComissionInCurrencyBalance":0.3878,"exchangeRate":95.5',
    );
  });

  it("amounts above 2^53/10^4 stay exact end to end", async () => {
    await control(sandbox, "PATCH", "/merchants/demo", { rate: "1", commission: { payIn: "0" } });
    try {
      const res = await client(sandbox).post(
        "/host2host/payin",
        payinBody({ amount: n("987654321098765.4321") }),
      );
      expect(res.text).toContain('"amountInitial":987654321098765.4321');
      expect(res.text).toContain('"amountInCurrencyBalance":987654321098765.4321');
      expect(res.text).not.toMatch(/:-?\d+(\.\d+)?[eE]/);
    } finally {
      await control(sandbox, "PATCH", "/merchants/demo", { rate: "95.5", commission: { payIn: "3" } });
    }
  });

  it("ties round half to even at the fourth decimal", async () => {
    await control(sandbox, "PATCH", "/merchants/other", { commission: { payIn: "0.5" }, rate: "1" });
    const api = client(sandbox, "other");
    // 0.5 % of 1.005 = 0.005025 -> 0.005 (below half)
    const a = dataOf(await api.post("/host2host/payin", payinBody({ amount: n("1.005") })));
    expect(a.amountComission).toBe(0.005);
    const b = dataOf(await api.post("/host2host/payin", payinBody({ amount: n("0.05") })));
    expect(b.amountComission).toBe(0.0002); // 0.00025 -> 0.0002 (half to even)
    const c = dataOf(await api.post("/host2host/payin", payinBody({ amount: n("0.07") })));
    expect(c.amountComission).toBe(0.0004); // 0.00035 -> 0.0004 (half to even)
    await control(sandbox, "PATCH", "/merchants/other", { commission: { payIn: "2.5" }, rate: "96" });
  });

  it("randomisation per merchant: amountRandomized and amount differ from amountInitial by 0.01..maxAdd", async () => {
    await control(sandbox, "PATCH", "/merchants/demo", { randomization: { enabled: true, maxAdd: "0.99" } });
    try {
      const op = dataOf(await client(sandbox).post("/host2host/payin", payinBody({ amount: n("1000") })));
      expect(op.amountInitial).toBe(1000);
      expect(op.amountRandomized).toBe(op.amount);
      expect(Number(op.amount)).toBeGreaterThan(1000);
      expect(Number(op.amount)).toBeLessThanOrEqual(1000.99);
      const payout = dataOf(await client(sandbox).post("/host2host/payout", payoutBody({ amount: n("10") })));
      expect(payout.amountRandomized).toBe(10);
    } finally {
      await control(sandbox, "PATCH", "/merchants/demo", { randomization: { enabled: false } });
    }
  });

  it("Rule 1: a failed pay-in reads back with zero commission, balance amounts and rate", async () => {
    const op = dataOf(await client(sandbox).post("/host2host/payin", payinBody({ amount: n("500") })));
    expect(op.amountComission).toBe(15);
    await move(sandbox, String(op.id), "in_progress", "failed");
    const read = await client(sandbox).get(`/operation/operation/platform/${String(op.id)}`);
    expect(dataOf(read)).toMatchObject({
      status: "failed",
      amount: 500,
      amountComission: 0,
      amountInCurrencyBalance: 0,
      amountComissionInCurrencyBalance: 0,
      exchangeRate: 0,
    });
    expect(read.text).toContain('"exchangeRate":0,');
  });

  it("a client from CLIENT data is not fraud (sanity check of the fixtures)", async () => {
    const res = await client(sandbox).post("/host2host/payin", payinBody({ clientID: CLIENT.clientID }));
    expect(res.body.status).toBe("Success");
  });
});
