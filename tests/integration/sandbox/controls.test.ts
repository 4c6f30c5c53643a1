import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_HISTORY } from "../../../sandbox/defaults";
import type { Sandbox } from "../../../sandbox/index";
import { client, control, dataOf, list, n, payinBody, startSandbox, str, tokenOf } from "./helpers";

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.stop());

const balanceText = async (merchant: string): Promise<string> =>
  /"amountInCurrencyBalance":(-?[\d.]+)/.exec((await client(sandbox, merchant).get("/balance")).text)?.[1] ??
  "";

describe("Controls › GET /__sandbox/merchants", () => {
  it("lists demo and other with token, currencies and dialect", async () => {
    const res = await control(sandbox, "GET", "/merchants");
    const merchants = list(res.body);
    expect(merchants.map((merchant) => merchant.id)).toEqual(["demo", "other"]);
    expect(merchants[0]).toMatchObject({
      balanceCurrency: "USDT",
      paymentCurrency: "RUB",
      dialect: "spec",
      token: tokenOf(sandbox, "demo"),
    });
    const demo = merchants[0];
    expect(list(demo?.tariff?.payIn)).toEqual(
      expect.arrayContaining([
        "toCard",
        "sbp",
        "toAccount",
        "transgran",
        "transgranSBP",
        "nspk",
        "ecom",
        "mobile",
      ]),
    );
    const mono = list(demo?.tariff?.payIn).filter((method) => /^(\w+)_\1$/.test(str(method)));
    expect(mono).toHaveLength(8);
    expect(list(demo?.tariff?.payOut)).toEqual(
      expect.arrayContaining(["toCard", "sbp", "toAccount", ...mono]),
    );
    expect(merchants[1]?.operations).toBe(0);
  });
});

describe("Controls › PATCH /__sandbox/merchants/{id}", () => {
  it("changes the tariff, and the Merchant API follows", async () => {
    const res = await control(sandbox, "PATCH", "/merchants/other", { tariff: { payIn: ["toCard"] } });
    expect(res.status).toBe(200);
    expect(res.body.tariff).toMatchObject({ payIn: ["toCard"], payOut: ["toCard", "sbp"] });
    const refused = await client(sandbox, "other").post(
      "/host2host/payin",
      payinBody({ paymentMethod: "sbp" }),
    );
    expect(refused.body.codeError).toBe("noSuitableTariffForRequest");
    await control(sandbox, "PATCH", "/merchants/other", { tariff: { payIn: ["toCard", "sbp"] } });
  });

  it("changes commission and rate of new operations", async () => {
    await control(sandbox, "PATCH", "/merchants/other", { commission: { payIn: "10" }, rate: 100 });
    const op = dataOf(
      await client(sandbox, "other").post("/host2host/payin", payinBody({ amount: n("1000") })),
    );
    expect(op).toMatchObject({
      amountComission: 100,
      amountInCurrencyBalance: 10,
      amountComissionInCurrencyBalance: 1,
      exchangeRate: 100,
    });
    await control(sandbox, "PATCH", "/merchants/other", { commission: { payIn: "2.5" }, rate: "96" });
  });

  it("refuses invalid settings with 400 and unknown merchants with 404", async () => {
    expect(
      (await control(sandbox, "PATCH", "/merchants/demo", { tariff: { payOut: ["ecom"] } })).status,
    ).toBe(400);
    expect((await control(sandbox, "PATCH", "/merchants/demo", { rate: "1e3" })).status).toBe(400);
    // an operation reports its rate with four decimals and its amounts must be computed with that rate
    expect((await control(sandbox, "PATCH", "/merchants/demo", { rate: "95.12345678" })).status).toBe(400);
    const otherRates = { otherRates: { KZT: "512.43719" } };
    expect((await control(sandbox, "PATCH", "/merchants/demo", otherRates)).status).toBe(400);
    expect((await control(sandbox, "PATCH", "/merchants/demo", { dialect: "xml" })).status).toBe(400);
    expect((await control(sandbox, "PATCH", "/merchants/demo", { colour: "red" })).status).toBe(400);
    expect((await control(sandbox, "PATCH", "/merchants/nobody", { maxTake: 10 })).status).toBe(404);
  });
});

describe("Controls › POST /__sandbox/merchants/{id}/balance", () => {
  it("credits, debits with a negative amount, records each entry, and refuses an overdraft", async () => {
    const before = await balanceText("other");
    const credited = await control(sandbox, "POST", "/merchants/other/balance", { amount: "1000.5" });
    expect(credited.status).toBe(200);
    const afterCredit = await balanceText("other");
    expect(Number(afterCredit) - Number(before)).toBeCloseTo(1000.5, 4);
    await control(sandbox, "POST", "/merchants/other/balance", { amount: "-0.5", note: "fee" });
    expect(Number(await balanceText("other")) - Number(before)).toBeCloseTo(1000, 4);
    const credits = list((await control(sandbox, "GET", "/merchants")).body)[1]?.credits;
    expect(
      list(credits)
        .slice(-2)
        .map((credit) => credit.amount),
    ).toEqual(["1000.5", "-0.5"]);
    expect((await control(sandbox, "POST", "/merchants/other/balance", { amount: "-99999999" })).status).toBe(
      409,
    );
    expect((await control(sandbox, "POST", "/merchants/other/balance", { amount: "1.23456" })).status).toBe(
      400,
    );
    expect((await control(sandbox, "POST", "/merchants/other/balance", { amount: "abc" })).status).toBe(400);
  });
});

describe("Controls › POST /__sandbox/seed", () => {
  it("adds historical operations with realistic mixes, spread over the days, newest first in the list", async () => {
    const seeded = await startSandbox({ seedDemoHistory: false });
    try {
      const res = await control(seeded, "POST", "/seed", {
        merchant: "other",
        count: 2000,
        days: 10,
        seed: 3,
      });
      expect(res.body).toMatchObject({ merchant: "other", created: 2000, total: 2000 });
      const page = await client(seeded, "other").post("/operation/operation/list", { skip: 0, take: 1000 });
      const page2 = await client(seeded, "other").post("/operation/operation/list", {
        skip: 1000,
        take: 1000,
      });
      const all = [...list(page.body.data), ...list(page2.body.data)];
      expect(page.body.totalNumberRecords).toBe(2000);
      const now = Date.now();
      const statuses = new Map<string, number>();
      for (const op of all) {
        const added = Date.parse(str(op.dateAdded));
        expect(now - added).toBeLessThanOrEqual(10 * 86_400_000 + 60_000);
        expect(Date.parse(str(op.dateUpdated))).toBeGreaterThanOrEqual(added);
        statuses.set(str(op.status), (statuses.get(str(op.status)) ?? 0) + 1);
        if (!["success", "failed"].includes(str(op.status)))
          expect(now - added).toBeLessThan(86_400_000 + 60_000);
      }
      expect((statuses.get("success") ?? 0) / 2000).toBeGreaterThan(0.75);
      expect((statuses.get("failed") ?? 0) / 2000).toBeGreaterThan(0.05);
      const payouts = all.filter((op) => (op.typeOperation as unknown) === "payOut").length;
      expect(payouts).toBeGreaterThan(100);
      expect(payouts).toBeLessThan(1000);
      expect(
        new Set(all.map((op) => op.paymentDetailsData?.paymentMethod).filter(Boolean)).size,
      ).toBeGreaterThan(1);
      expect(
        Number(
          /"amountInCurrencyBalance":([\d.]+)/.exec(
            (await client(seeded, "other").get("/balance")).text,
          )?.[1],
        ),
      ).toBeGreaterThan(0);
      expect((await control(seeded, "POST", "/seed", { merchant: "nobody", count: 1 })).status).toBe(404);
      expect((await control(seeded, "POST", "/seed", { merchant: "other", count: 0 })).status).toBe(400);
    } finally {
      await seeded.stop();
    }
  });
});

describe("Controls › POST /__sandbox/reset", () => {
  it("brings back the defaults, keeping the tokens", async () => {
    const local = await startSandbox();
    try {
      const token = tokenOf(local, "demo");
      await client(local, "other").post("/host2host/payin", payinBody());
      await control(local, "PATCH", "/merchants/demo", { maxTake: 3, dialect: "nested" });
      await control(local, "PUT", "/faults", { latencyMs: 5 });
      const res = await control(local, "POST", "/reset");
      expect(res.status).toBe(200);
      expect(tokenOf(local, "demo")).toBe(token);
      const merchants = list((await control(local, "GET", "/merchants")).body);
      expect(merchants[0]).toMatchObject({ maxTake: 1000, dialect: "spec", operations: DEMO_HISTORY.count });
      expect(merchants[1]).toMatchObject({ operations: 0 });
      expect((await control(local, "GET", "/faults")).body).toMatchObject({ latencyMs: 0 });
    } finally {
      await local.stop();
    }
  });
});

describe("Controls › GET /__sandbox/requests?traceID=", () => {
  it("shows what the sandbox received and answered for a traceID, without the token", async () => {
    const body = payinBody({ amount: n("321.5") });
    const res = await client(sandbox).post("/host2host/payin", body);
    const traceID = str(res.body.traceID);
    const entries = list((await control(sandbox, "GET", `/requests?traceID=${traceID}`)).body);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      traceID,
      method: "POST",
      path: "/host2host/payin",
      merchantId: "demo",
      httpStatus: 200,
      fault: null,
    });
    expect(entries[0]?.requestBody).toContain('"amount":321.5');
    expect(entries[0]?.responseBody).toBe(res.text);
    expect(JSON.stringify(entries)).not.toContain(tokenOf(sandbox, "demo"));
    expect(
      (await control(sandbox, "GET", "/requests?traceID=00000000-0000-4000-8000-000000000000")).body,
    ).toEqual([]);
  });

  it("logs authentication failures too, with no merchant", async () => {
    const res = await fetch(`${sandbox.url}/balance`);
    const traceID = String(((await res.json()) as { traceID: string }).traceID);
    const [entry] = list((await control(sandbox, "GET", `/requests?traceID=${traceID}`)).body);
    expect(entry).toMatchObject({ httpStatus: 401, merchantId: null });
  });
});

describe("Controls › HTML page /__sandbox/", () => {
  it("shows the latest operations of a merchant with buttons for the allowed moves", async () => {
    const op = dataOf(await client(sandbox).post("/host2host/payin", payinBody()));
    const res = await fetch(`${sandbox.url}/__sandbox/?merchant=demo`);
    const html = await res.text();
    expect(res.headers.get("content-type")).toContain("text/html");
    expect(html).toContain(str(op.id).slice(0, 8));
    expect(html).toContain(`data-id="${str(op.id)}" data-status="in_progress"`);
    expect(html).toContain(`data-id="${str(op.id)}" data-status="booking"`);
  });
});
