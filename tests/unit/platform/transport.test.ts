import { createServer } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, test, vi } from "vitest";
import { createPlatformClient } from "@/lib/platform/client";
import { PlatformError } from "@/lib/platform/errors";
import { InMemoryRecorder } from "../../support/in-memory-recorder";
import { FakePlatform, OP_ID, TRACE, operationJson, specError, specOk } from "./fake-platform";
import { TOKEN, makeClient, payIn, payOut, rejection } from "./helpers";

let fake: FakePlatform;
beforeAll(async () => {
  fake = await FakePlatform.start();
});
afterAll(async () => {
  await fake.close();
});
beforeEach(() => fake.reset());

const OP_PATH = `/api/operation/operation/platform/${OP_ID}`;
const html502 = {
  status: 502,
  body: "<html><body><h1>502 Bad Gateway</h1></body></html>",
  headers: { "content-type": "text/html" },
};

async function freePortUrl(): Promise<string> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, "127.0.0.1", r));
  const { port } = srv.address() as { port: number };
  await new Promise<void>((r) => srv.close(() => r()));
  return `http://127.0.0.1:${port}`;
}

describe("timeouts", () => {
  test("creation: one attempt, kind timeout, outcome unknown, recorded", async () => {
    // a timeout generous enough that the request reaches the fake platform on a busy machine
    fake.route("POST", "/api/host2host/payout", { delayMs: 2000, body: specOk(operationJson()) });
    const { client, recorder } = makeClient(fake, { timeoutMs: 400 });
    const e = (await rejection(client.createPayOut(payOut, { actorUserId: "u1" }))) as PlatformError;
    expect(e).toBeInstanceOf(PlatformError);
    expect(e).toMatchObject({ kind: "timeout", outcomeUnknown: true, attempts: 1, httpStatus: null });
    expect(fake.received).toHaveLength(1);
    expect(recorder.calls).toHaveLength(1);
    expect(recorder.calls[0]).toMatchObject({
      httpStatus: null,
      actorUserId: "u1",
      idTransactionMerchant: "order-1",
    });
    expect(recorder.calls[0]?.error).toMatch(/no answer within 400 ms/);
    expect(recorder.calls[0]?.latencyMs).toBeGreaterThanOrEqual(390);
  });

  test("read: retried up to the attempt limit with jittered backoff; every attempt recorded", async () => {
    fake.route("GET", OP_PATH, { delayMs: 1000, body: specOk(operationJson()) });
    const { client, recorder, sleeps } = makeClient(fake, { timeoutMs: 80 });
    const e = (await rejection(client.getOperation(OP_ID))) as PlatformError;
    expect(e).toMatchObject({ kind: "timeout", attempts: 3, outcomeUnknown: false });
    expect(fake.received).toHaveLength(3);
    expect(recorder.calls.map((c) => c.attempt)).toEqual([1, 2, 3]);
    // full jitter with random() = 0.5: 0.5 * 100, 0.5 * 200
    expect(sleeps).toEqual([50, 100]);
  });
});

describe("retries", () => {
  test("GET: 5xx then success", async () => {
    fake.route(
      "GET",
      OP_PATH,
      html502,
      { status: 500, body: specError("Warning", "internalError", "boom") },
      { body: specOk(operationJson()) },
    );
    const { client, recorder, sleeps } = makeClient(fake);
    const { operation } = await client.getOperation(OP_ID);
    expect(operation?.id).toBe(OP_ID);
    expect(fake.received).toHaveLength(3);
    expect(recorder.calls.map((c) => c.httpStatus)).toEqual([502, 500, 200]);
    expect(recorder.calls[0]?.error).toContain("502 Bad Gateway");
    expect(recorder.calls[1]?.codeError).toBe("internalError");
    expect(recorder.calls[2]?.error).toBeNull();
    expect(sleeps).toHaveLength(2);
  });

  test("backoff is capped by maxDelayMs and scaled by random()", async () => {
    fake.route("GET", "/api/balance", { status: 503, body: "" });
    const { client, sleeps } = makeClient(fake, {
      retry: { attempts: 5, baseDelayMs: 100, maxDelayMs: 300 },
      random: () => 0.999,
    });
    const e = (await rejection(client.getBalance())) as PlatformError;
    expect(e).toMatchObject({ kind: "transport", httpStatus: 503, attempts: 5 });
    expect(sleeps).toEqual([99, 199, 299, 299]);
  });

  test("list POST is a read: retried on 503", async () => {
    fake.route(
      "POST",
      "/api/operation/operation/list",
      { status: 503, body: "" },
      { body: specOk("[]", `,"totalNumberRecords":0`) },
    );
    const { client } = makeClient(fake);
    const r = await client.listOperations({ skip: 0, take: 50 });
    expect(r.totalNumberRecords).toBe(0);
    expect(fake.received).toHaveLength(2);
    expect(fake.received[1]?.body).toBe(`{"skip":0,"take":50}`);
  });

  test("creation: 5xx is not retried; HTML body -> transport error, outcome unknown", async () => {
    fake.route("POST", "/api/host2host/payin", html502, { body: specOk(operationJson()) });
    const { client, recorder } = makeClient(fake);
    const e = (await rejection(client.createPayIn(payIn))) as PlatformError;
    expect(e).toMatchObject({ kind: "transport", httpStatus: 502, outcomeUnknown: true, attempts: 1 });
    expect(e.bodySnippet).toContain("502 Bad Gateway");
    expect(fake.received).toHaveLength(1);
    expect(recorder.calls).toHaveLength(1);
  });

  test("GET: dropped connection then success", async () => {
    fake.route(
      "GET",
      "/api/balance",
      { drop: true },
      {
        body: specOk(
          `{"amountInCurrencyBalance":10,"currencyBalance":"USDT","amountInCurrencyPayment":937.5,"currencyPayment":"RUB","exchangeRate":93.75}`,
        ),
      },
    );
    const { client, recorder } = makeClient(fake);
    const { balance } = await client.getBalance();
    expect(balance.amountInCurrencyPayment.toFixed()).toBe("937.5");
    expect(recorder.calls[0]).toMatchObject({ httpStatus: null, attempt: 1 });
    expect(recorder.calls[0]?.error).toMatch(/fetch failed|socket|closed/i);
    expect(recorder.calls[1]).toMatchObject({ httpStatus: 200, attempt: 2 });
  });

  test("creation: dropped connection -> transport, outcome unknown, not retried", async () => {
    fake.route("POST", "/api/host2host/payout", { drop: true });
    const { client } = makeClient(fake);
    const e = (await rejection(client.createPayOut(payOut))) as PlatformError;
    expect(e).toMatchObject({ kind: "transport", outcomeUnknown: true, httpStatus: null });
    expect(fake.received).toHaveLength(1);
  });

  test("creation: connection refused -> outcome known (nothing was sent)", async () => {
    const { client } = makeClient(fake, { baseUrl: await freePortUrl() });
    const e = (await rejection(client.createPayIn(payIn))) as PlatformError;
    expect(e).toMatchObject({ kind: "transport", outcomeUnknown: false });
    expect(e.message).toContain("ECONNREFUSED");
  });

  test("business warnings are not retried even on reads", async () => {
    fake.route("GET", "/api/balance", { body: specError("Warning", "internalError", "nope") });
    const { client } = makeClient(fake);
    await rejection(client.getBalance());
    expect(fake.received).toHaveLength(1);
  });

  test("cancelled by the caller: not retried", async () => {
    fake.route("GET", "/api/balance", { delayMs: 1000, body: "" });
    const { client, recorder } = makeClient(fake);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const e = (await rejection(client.getBalance({ signal: controller.signal }))) as PlatformError;
    expect(e).toMatchObject({ kind: "transport", attempts: 1 });
    expect(e.message).toContain("cancelled");
    expect(recorder.calls).toHaveLength(1);
  });
});

describe("non-envelope bodies", () => {
  test("HTTP 400 problem JSON -> protocol error with status, fields and traceId", async () => {
    fake.route("POST", "/api/host2host/payin", {
      status: 400,
      headers: { "content-type": "application/problem+json" },
      body: `{"type":"https://tools.ietf.org/html/rfc9110#section-15.5.1","title":"One or more validation errors occurred.","status":400,"errors":{"clientIP":["The clientIP field is required."]},"traceId":"00-4bf92f3577b34da6-00f067aa0ba902b7-00"}`,
    });
    const { client, recorder } = makeClient(fake);
    const e = (await rejection(client.createPayIn(payIn))) as PlatformError;
    expect(e).toMatchObject({
      kind: "protocol",
      httpStatus: 400,
      outcomeUnknown: false,
      traceID: "00-4bf92f3577b34da6-00f067aa0ba902b7-00",
    });
    expect(e.message).toContain("clientIP: The clientIP field is required.");
    expect(recorder.calls[0]).toMatchObject({ httpStatus: 400, envelopeStatus: null, dialect: null });
    expect(recorder.calls[0]?.error).toContain("One or more validation errors occurred.");
  });

  test.each([
    [
      "HTML 200",
      { status: 200, body: "<!doctype html><title>Maintenance</title>" },
      "protocol",
      "Maintenance",
    ],
    ["empty 200", { status: 200, body: "" }, "protocol", "empty body"],
    ["HTML 401", { status: 401, body: "<h1>Unauthorized</h1>" }, "auth", "Unauthorized"],
    [
      "redirect is not followed",
      { status: 302, body: "", headers: { location: "https://elsewhere.example/" } },
      "protocol",
      "HTTP 302",
    ],
  ])("%s", async (_name, response, kind, fragment) => {
    fake.route("GET", "/api/masterdata/bank/list", response);
    const { client } = makeClient(fake);
    const e = (await rejection(client.getBanks())) as PlatformError;
    expect(e.kind).toBe(kind);
    expect(e.httpStatus).toBe(response.status);
    expect(e.message).toContain(fragment);
  });

  test("x-request-id header is the traceID fallback", async () => {
    fake.route("GET", "/api/balance", {
      status: 404,
      body: "not here",
      headers: { "x-request-id": "hdr-trace" },
    });
    const { client, recorder } = makeClient(fake);
    const e = (await rejection(client.getBalance())) as PlatformError;
    expect(e.traceID).toBe("hdr-trace");
    expect(recorder.calls[0]?.traceID).toBe("hdr-trace");
  });
});

describe("the token stays secret", () => {
  test("a body echoing the token is redacted in errors and records", async () => {
    fake.route("POST", "/api/host2host/payout", (req) => ({
      status: 400,
      body: `{"title":"Bad request","status":400,"errors":{"auth":["${req.headers.authorization ?? ""} rejected"]}}`,
    }));
    fake.route("GET", "/api/balance", {
      body: specError("AuthError", "internalError", `token ${TOKEN} unknown`),
    });
    const { client, recorder } = makeClient(fake);
    const e1 = (await rejection(client.createPayOut(payOut))) as PlatformError;
    const e2 = (await rejection(client.getBalance())) as PlatformError;
    expect(fake.received[0]?.headers.authorization).toBe(`Bearer ${TOKEN}`); // it was really sent...
    for (const e of [e1, e2]) {
      const everything = `${e.message} ${e.stack} ${JSON.stringify(e)} ${e.platformMessage} ${e.bodySnippet}`;
      expect(everything).not.toContain(TOKEN); // ...and never comes back out
      expect(everything).toContain("[REDACTED]");
    }
    expect(JSON.stringify(recorder.calls)).not.toContain(TOKEN);
    expect(JSON.stringify(recorder.calls)).not.toContain("4111111111111234");
  });

  test("the client object does not expose the token", () => {
    const { client } = makeClient(fake);
    expect(JSON.stringify(client)).not.toContain(TOKEN);
    expect(Object.values(client).every((v) => typeof v === "function")).toBe(true);
  });

  test("configuration errors do not echo the token", () => {
    expect(() => createPlatformClient({ baseUrl: "not a url", token: TOKEN })).toThrow(/baseUrl/);
    try {
      createPlatformClient({ baseUrl: "ftp://x", token: TOKEN });
    } catch (e) {
      expect(String(e)).not.toContain(TOKEN);
    }
    expect(() => createPlatformClient({ baseUrl: fake.url, token: " " })).toThrow(/token is required/);
  });
});

describe("recorder", () => {
  test("a failing recorder does not fail the call; the failure is reported", async () => {
    fake.route("POST", "/api/host2host/payin", { body: specOk(operationJson()) });
    const onRecorderError = vi.fn();
    const client = createPlatformClient({
      baseUrl: `${fake.url}/api/`,
      token: TOKEN,
      recorder: { record: () => Promise.reject(new Error("db down")) },
      onRecorderError,
    });
    const { operation, traceID } = await client.createPayIn(payIn);
    expect(operation.id).toBe(OP_ID);
    expect(traceID).toBe(TRACE);
    expect(onRecorderError).toHaveBeenCalledTimes(1);
    expect(onRecorderError.mock.calls[0]?.[1]).toMatchObject({ traceID: TRACE, path: "/host2host/payin" });
  });

  test("records are written before the call returns", async () => {
    fake.route("GET", "/api/balance", { body: specError("Warning", "internalError", "x") });
    const recorder = new InMemoryRecorder();
    let seenWhenThrown = -1;
    const client = createPlatformClient({ baseUrl: fake.url + "/api", token: TOKEN, recorder });
    await client.getBalance().catch(() => {
      seenWhenThrown = recorder.calls.length;
    });
    expect(seenWhenThrown).toBe(1);
  });
});
