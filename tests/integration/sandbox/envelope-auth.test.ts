import { afterAll, beforeAll, describe, expect, it, test } from "vitest";
import { signMerchantToken } from "../../../sandbox/auth";
import type { Sandbox } from "../../../sandbox/index";
import { call, client, control, payinBody, startSandbox, tokenOf } from "./helpers";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.stop());

describe("Response envelope (all endpoints)", () => {
  const reads: Array<[string, string, unknown]> = [
    ["GET", "/balance", undefined],
    ["GET", "/masterdata/bank/list", undefined],
    ["POST", "/operation/operation/list", { skip: 0, take: 1 }],
    ["GET", "/operation/operation/merhcant/none", undefined],
    ["GET", "/operation/operation/platform/00000000-0000-4000-8000-000000000000", undefined],
  ];

  test.each(reads)("%s %s carries status, data and a fresh UUID traceID", async (method, path, body) => {
    const token = tokenOf(sandbox, "demo");
    const first = await call(sandbox, method, path, { token, body });
    const second = await call(sandbox, method, path, { token, body });
    expect(first.httpStatus).toBe(200);
    expect(["Success", "Warning"]).toContain(first.body.status);
    expect("data" in first.body).toBe(true);
    expect(first.body.traceID).toMatch(UUID);
    expect(second.body.traceID).toMatch(UUID);
    expect(second.body.traceID).not.toBe(first.body.traceID);
  });

  it("an error carries data null, codeError, message and traceID, with HTTP 200 for warnings", async () => {
    const res = await client(sandbox).get(
      "/operation/operation/platform/00000000-0000-4000-8000-000000000000",
    );
    expect(res.httpStatus).toBe(200);
    expect(res.body).toMatchObject({ status: "Warning", data: null, codeError: "invalidRequestParameters" });
    expect(res.body.message).toMatch(/not found/);
    expect(res.body.traceID).toMatch(UUID);
  });

  it("totalNumberRecords appears only in the list response", async () => {
    const api = client(sandbox);
    const listed = await api.post("/operation/operation/list", { skip: 0, take: 1 });
    expect(typeof listed.body.totalNumberRecords).toBe("number");
    const balance = await api.get("/balance");
    expect("totalNumberRecords" in balance.body).toBe(false);
  });
});

describe("Authentication", () => {
  const otherSecretToken = signMerchantToken("another-secret", "demo", 1_700_000_000);
  const cases: Array<[string, string | null]> = [
    ["a missing Authorization header", null],
    ["a malformed token", "not-a-jwt"],
    ["a token signed with another secret", otherSecretToken],
  ];

  test.each(cases)(
    "Rule 2: %s gives AuthError / internalError / user data not found",
    async (_label, token) => {
      const res = await call(sandbox, "GET", "/balance", { token });
      expect(res.httpStatus).toBe(401);
      expect(res.body).toMatchObject({
        status: "AuthError",
        data: null,
        codeError: "internalError",
        message: "user data not found",
      });
      expect(res.body.traceID).toMatch(UUID);
    },
  );

  it("Rule 2: a well-signed token of an unknown merchant is refused too", async () => {
    const token = signMerchantToken(sandbox.platform.state.secret, "ghost", 1_700_000_000);
    const res = await call(sandbox, "POST", "/host2host/payin", { token, body: payinBody() });
    expect(res.body).toMatchObject({ status: "AuthError", codeError: "internalError" });
  });

  it("Rule 1: each merchant has its own JWT, signed by the sandbox (HS256, sub = merchant id)", () => {
    const demo = tokenOf(sandbox, "demo");
    const other = tokenOf(sandbox, "other");
    expect(demo).not.toBe(other);
    const [header, payload] = demo
      .split(".")
      .slice(0, 2)
      .map((part) => JSON.parse(Buffer.from(part, "base64url").toString("utf8")) as Record<string, unknown>);
    expect(header).toMatchObject({ alg: "HS256", typ: "JWT" });
    expect(payload).toMatchObject({ sub: "demo", iss: "paydesk-sandbox" });
  });
});

describe("Wire notes › Response envelope: nested dialect", () => {
  it("maps status, x-request-id, codeError class and codeErrorExt", async () => {
    await control(sandbox, "PATCH", "/merchants/other", { dialect: "nested" });
    try {
      const api = client(sandbox, "other");
      const ok = await api.get("/balance");
      expect(ok.body.result).toMatchObject({
        status: "success",
        codeError: "none",
        codeErrorExt: "none",
        message: "",
      });
      expect(ok.body.result?.["x-request-id"]).toMatch(UUID);
      expect(ok.body.totalNumberRecords).toBe(0);
      expect(ok.body.data).toMatchObject({ currencyBalance: "USDT", currencyPayment: "RUB" });
      expect("traceID" in ok.body).toBe(false);

      const poor = await api.post("/host2host/payout", {
        ...payinBody({ paymentMethod: "toCard" }),
        number: "2200700012345678",
        bankName: "Т-Банк",
      });
      expect(poor.body.result).toMatchObject({
        status: "warning",
        codeError: "none",
        codeErrorExt: "notEnoughMoneyOnBalance",
      });
      expect(poor.body.data).toBeNull();

      const invalid = await api.post("/host2host/payin", payinBody({ amount: "5000" }));
      expect(invalid.body.result).toMatchObject({
        status: "warning",
        codeError: "validationError",
        codeErrorExt: "invalidRequestParameters",
      });

      const created = await api.post("/host2host/payin", payinBody());
      expect(created.body.result?.status).toBe("success");
      expect(created.body.data).toMatchObject({ typeOperation: "payIn", status: "in_progress" });
      const listed = await api.post("/operation/operation/list", { skip: 0, take: 10 });
      expect(listed.body.totalNumberRecords).toBe(1);
      expect(listed.body.data?.[0]?.id).toBe(created.body.data?.id);
    } finally {
      await control(sandbox, "PATCH", "/merchants/other", { dialect: "spec" });
    }
  });
});

describe("Wire notes › HTTP status codes: framework-style problem bodies", () => {
  it("malformed JSON gives HTTP 400 with a problem body instead of the envelope", async () => {
    const res = await call(sandbox, "POST", "/host2host/payin", {
      token: tokenOf(sandbox, "demo"),
      body: '{"amount": 10,',
    });
    expect(res.httpStatus).toBe(400);
    expect(res.body).toMatchObject({ status: 400, title: "One or more validation errors occurred." });
    expect(res.body.errors).toBeDefined();
    expect("traceID" in res.body).toBe(false);
  });

  it("a body that is not JSON by content type gives HTTP 415 with a problem body", async () => {
    const res = await call(sandbox, "POST", "/host2host/payin", {
      token: tokenOf(sandbox, "demo"),
      body: "amount=10",
      contentType: "text/plain",
    });
    expect(res.httpStatus).toBe(415);
    expect(res.body).toMatchObject({ status: 415, title: "Unsupported Media Type" });
  });

  it("an empty body gives HTTP 400 with a problem body", async () => {
    const res = await call(sandbox, "POST", "/operation/operation/list", {
      token: tokenOf(sandbox, "demo"),
      body: "",
    });
    expect(res.httpStatus).toBe(400);
    expect(res.body.status).toBe(400);
  });

  it("an unknown path gives 404 and a wrong method 405", async () => {
    const token = tokenOf(sandbox, "demo");
    expect((await call(sandbox, "GET", "/no/such/endpoint", { token })).httpStatus).toBe(404);
    expect((await call(sandbox, "GET", "/host2host/payin", { token })).httpStatus).toBe(405);
  });

  it("paths match case-insensitively, as on the platform", async () => {
    const res = await call(sandbox, "GET", "/Balance", { token: tokenOf(sandbox, "demo") });
    expect(res.body.status).toBe("Success");
  });
});
