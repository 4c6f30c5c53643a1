// The transport and the client at their edges: network failures in words and whether the request may
// have been sent, other bearer tokens redacted, configuration checks, what each record holds, which
// reads are retried, and the client's local refusals.
import { afterAll, beforeAll, beforeEach, describe, expect, test, vi } from "vitest";
import { createPlatformClient } from "@/lib/platform/client";
import { PlatformError, PlatformRequestError } from "@/lib/platform/errors";
import { DEFAULT_RETRY, DEFAULT_TIMEOUT_MS } from "@/lib/platform/http";
import { InMemoryRecorder } from "../../support/in-memory-recorder";
import { FakePlatform, OP_ID, TRACE, operationJson, specError, specOk } from "./fake-platform";
import { TOKEN, makeClient, payOut, rejection } from "./helpers";

let fake: FakePlatform;
beforeAll(async () => {
  fake = await FakePlatform.start();
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

const OP_PATH = `/api/operation/operation/platform/${OP_ID}`;

/** A client whose fetch fails the way `fail` says, without any network. */
function failingClient(fail: () => unknown, over: Parameters<typeof createPlatformClient>[0] | object = {}) {
  const recorder = new InMemoryRecorder();
  const client = createPlatformClient({
    baseUrl: "https://platform.example/api",
    token: TOKEN,
    recorder,
    retry: { attempts: 1 },
    fetch: () => Promise.reject(fail()),
    ...over,
  });
  return { client, recorder };
}

const networkError = (cause?: unknown) => Object.assign(new TypeError("fetch failed"), { cause });

describe("defaults", () => {
  test("three attempts for reads, 250 ms to 4 s between them, 15 s per attempt", () => {
    expect(DEFAULT_RETRY).toEqual({ attempts: 3, baseDelayMs: 250, maxDelayMs: 4000 });
    expect(DEFAULT_TIMEOUT_MS).toBe(15_000);
  });
});

describe("network failures", () => {
  test.each([
    ["ECONNREFUSED", false],
    ["ENOTFOUND", false],
    ["EAI_AGAIN", false],
    ["ENETUNREACH", false],
    ["EHOSTUNREACH", false],
    ["ERR_INVALID_URL", false],
    ["ECONNRESET", true],
    ["UND_ERR_SOCKET", true],
  ])("a creation failing with %s: may have been sent = %s", async (code, unknown) => {
    const cause = Object.assign(new Error(`connect ${code} platform.example`), { code });
    const { client, recorder } = failingClient(() => networkError(cause));
    const e = (await rejection(client.createPayOut(payOut))) as PlatformError;
    expect(e).toMatchObject({ kind: "transport", outcomeUnknown: unknown, httpStatus: null, attempts: 1 });
    expect(e.message).toBe(
      `Platform POST /host2host/payout failed: TypeError: fetch failed (${code}: connect ${code} platform.example)`,
    );
    expect(recorder.calls[0]?.error).toBe(e.message);
  });

  test.each([
    [
      "a cause without a code",
      () => networkError(new Error("socket hang up")),
      "TypeError: fetch failed (socket hang up)",
    ],
    ["no cause", () => networkError(), "TypeError: fetch failed"],
    ["a cause that is not an Error", () => networkError({ code: "ECONNRESET" }), "TypeError: fetch failed"],
    ["a thrown string", () => "boom", "boom"],
    ["a thrown null", () => null, "null"],
  ])("%s is described in words", async (_name, fail, detail) => {
    const { client } = failingClient(fail);
    const e = (await rejection(client.getBalance())) as PlatformError;
    expect(e.message).toBe(`Platform GET /balance failed: ${detail}`);
    expect(e.kind).toBe("transport");
  });

  test("a TimeoutError from the fetch itself is a timeout, and the token never appears", async () => {
    const { client } = failingClient(
      () => Object.assign(new Error(`slow ${TOKEN}`), { name: "TimeoutError" }),
      {
        timeoutMs: 1234,
      },
    );
    const e = (await rejection(client.getBalance())) as PlatformError;
    expect(e).toMatchObject({
      kind: "timeout",
      message: "Platform GET /balance failed: no answer within 1234 ms",
    });
  });

  test("a failure's own text is redacted of the token", async () => {
    const { client } = failingClient(() => networkError(new Error(`proxy refused Bearer ${TOKEN}`)));
    const e = (await rejection(client.getBalance())) as PlatformError;
    expect(e.message).toBe(
      "Platform GET /balance failed: TypeError: fetch failed (proxy refused Bearer [REDACTED])",
    );
  });
});

describe("other bearer tokens in answers are redacted too", () => {
  test("any case, any spacing, eight characters or more", async () => {
    fake.route("GET", "/api/balance", {
      status: 404,
      body: "<p>Bearer   abcdefghij, BEARER zyxwvutsrq and bearer short</p>",
    });
    const { client } = makeClient(fake);
    const e = (await rejection(client.getBalance())) as PlatformError;
    expect(e.bodySnippet).toBe("<p>Bearer [REDACTED], BEARER [REDACTED] and bearer short</p>");
  });
});

describe("configuration", () => {
  test.each([[undefined], [""], ["   "], [42]])("token %j: refused", (token) => {
    expect(() => createPlatformClient({ baseUrl: fake.url, token: token as never })).toThrow(
      "Platform client: token is required",
    );
  });

  test.each(["ftp://platform.example", "file:///etc/passwd", "ws://platform.example"])(
    "base URL %s: refused",
    (baseUrl) => {
      expect(() => createPlatformClient({ baseUrl, token: TOKEN })).toThrow(
        "Platform client: baseUrl must be http(s)",
      );
    },
  );

  test.each(["https://platform.example/api", "http://127.0.0.1:9/api/", "HTTPS://PLATFORM.EXAMPLE"])(
    "base URL %s: accepted",
    (baseUrl) => {
      expect(() => createPlatformClient({ baseUrl, token: TOKEN })).not.toThrow();
    },
  );

  test("without an injected sleep the backoff really waits", async () => {
    fake.route("GET", "/api/balance", { status: 503, body: "" }, { body: specError("Warning", "x", "y") });
    const client = createPlatformClient({
      baseUrl: `${fake.url}/api`,
      token: TOKEN,
      retry: { attempts: 2, baseDelayMs: 60, maxDelayMs: 60 },
      random: () => 0.999,
    });
    const started = performance.now();
    await rejection(client.getBalance());
    expect(performance.now() - started).toBeGreaterThanOrEqual(50);
    expect(fake.received).toHaveLength(2);
  });

  test("without onRecorderError a recording failure is reported on the console, with the call", async () => {
    const consoleError = vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      fake.route("GET", "/api/balance", { body: specError("Warning", "x", "y") });
      fake.route("GET", "/api/masterdata/bank/list", { status: 404, body: "" });
      const failure = new Error("db down");
      const client = createPlatformClient({
        baseUrl: `${fake.url}/api`,
        token: TOKEN,
        recorder: { record: () => Promise.reject(failure) },
      });
      await rejection(client.getBalance());
      await rejection(client.getBanks());
      expect(consoleError.mock.calls).toEqual([
        [`[platform] could not record GET /balance (traceID ${TRACE})`, failure],
        ["[platform] could not record GET /masterdata/bank/list (traceID -)", failure],
      ]);
    } finally {
      consoleError.mockRestore();
    }
  });
});

describe("what is sent and recorded", () => {
  test("headers: JSON accepted; a content type only with a body", async () => {
    fake.route("GET", "/api/balance", { body: specError("Warning", "x", "y") });
    fake.route("POST", "/api/operation/operation/list", { body: specOk("[]", `,"totalNumberRecords":0`) });
    const { client } = makeClient(fake);
    await rejection(client.getBalance());
    await client.listOperations({ skip: 0, take: 1 });
    expect(fake.received[0]?.headers).toMatchObject({
      accept: "application/json",
      authorization: `Bearer ${TOKEN}`,
    });
    expect(fake.received[0]?.headers["content-type"]).toBeUndefined();
    expect(fake.received[1]?.headers["content-type"]).toBe("application/json");
  });

  test("latency is measured, not accumulated", async () => {
    fake.route("GET", "/api/balance", { body: specError("Warning", "x", "y"), delayMs: 30 });
    const { client, recorder } = makeClient(fake);
    await rejection(client.getBalance());
    expect(recorder.calls[0]!.latencyMs).toBeGreaterThanOrEqual(25);
    expect(recorder.calls[0]!.latencyMs).toBeLessThan(5_000);
  });

  test("a retried attempt's record says why: the status, and the body or that it was empty", async () => {
    fake.route(
      "GET",
      "/api/balance",
      { status: 503, body: "" },
      { status: 502, body: "<b>gateway</b>" },
      { body: specError("Warning", "x", "y") },
    );
    const { client, recorder } = makeClient(fake);
    await rejection(client.getBalance());
    expect(recorder.calls.map((c) => c.error)).toEqual([
      "HTTP 503: empty body",
      "HTTP 502: <b>gateway</b>",
      null,
    ]);
  });

  test("a business or auth refusal is recorded with its code, not as an error", async () => {
    fake.route("GET", "/api/balance", { body: specError("Warning", "fraud", "slow down") });
    fake.route("GET", "/api/masterdata/bank/list", { body: specError("AuthError", "internalError", "who") });
    const { client, recorder } = makeClient(fake);
    await rejection(client.getBalance());
    await rejection(client.getBanks());
    expect(recorder.calls.map((c) => [c.codeError, c.message, c.error])).toEqual([
      ["fraud", "slow down", null],
      ["internalError", "who", null],
    ]);
  });

  test.each([
    ["a read", false],
    ["a creation", true],
  ])(
    "a success envelope whose data does not match, on %s: protocol error, outcome unknown %s",
    async (what, unknown) => {
      fake.route("GET", "/api/balance", { body: specOk(`{"currencyBalance":"USDT"}`) });
      fake.route("POST", "/api/host2host/payout", { body: specOk(operationJson({ amount: `"x"` })) });
      const { client, recorder } = makeClient(fake);
      const e = (await rejection(
        what === "a read" ? client.getBalance() : client.createPayOut(payOut),
      )) as PlatformError;
      expect(e).toMatchObject({
        kind: "protocol",
        outcomeUnknown: unknown,
        traceID: TRACE,
        envelopeStatus: "Success",
      });
      const path = what === "a read" ? "GET /balance" : "POST /host2host/payout";
      const shape = what === "a read" ? "balance does not match" : "operation does not match";
      expect(e.message).toMatch(
        new RegExp(`^Platform ${path}: ${shape} the expected shape: .* \\(traceID ${TRACE}\\)$`),
      );
      expect(recorder.calls[0]?.error).toBe(e.message);
    },
  );

  test("a read fills in the record's operation and merchant ids from the answer", async () => {
    fake.route("GET", OP_PATH, { body: specOk(operationJson({ idTransactionMerchant: `"order-9"` })) });
    const { client, recorder } = makeClient(fake);
    await client.getOperation(OP_ID.toUpperCase());
    expect(recorder.calls[0]).toMatchObject({ operationId: OP_ID, idTransactionMerchant: "order-9" });
  });

  test("a creation keeps its own merchant id in the record, and takes the operation id from the answer", async () => {
    fake.route("POST", "/api/host2host/payout", {
      body: specOk(
        operationJson({ id: `"${OP_ID.toUpperCase()}"`, idTransactionMerchant: `"someone-else"` }),
      ),
    });
    const { client, recorder } = makeClient(fake);
    await client.createPayOut(payOut);
    expect(recorder.calls[0]).toMatchObject({ operationId: OP_ID, idTransactionMerchant: "order-1" });
  });
});

describe("the client's reads", () => {
  test.each([
    ["invalidRequestParameters", null],
    ["operationNotFound", null],
    ["NOTFOUND", null],
  ])("by id, refused with %s: not found (null)", async (code) => {
    fake.route("GET", OP_PATH, { body: specError("Warning", code, "no such operation") });
    const { client } = makeClient(fake);
    expect((await client.getOperation(OP_ID)).operation).toBeNull();
  });

  test("by id, refused with another code: an error, not 'not found'", async () => {
    fake.route("GET", OP_PATH, { body: specError("Warning", "fraud", "no") });
    const { client } = makeClient(fake);
    expect(await rejection(client.getOperation(OP_ID))).toMatchObject({
      kind: "business",
      codeError: "fraud",
    });
  });

  test("by id, a success without data: none, and the record still names the operation", async () => {
    fake.route("GET", OP_PATH, { body: specOk("null") });
    const { client, recorder } = makeClient(fake);
    expect(await client.getOperation(OP_ID)).toEqual({ operation: null, traceID: TRACE });
    expect(recorder.calls[0]?.operationId).toBe(OP_ID);
  });

  test("by id, the caller's operation id is kept in the record", async () => {
    fake.route("GET", OP_PATH, { body: specOk("null") });
    const { client, recorder } = makeClient(fake);
    await client.getOperation(OP_ID, { operationId: "11111111-1111-4111-8111-111111111111" });
    expect(recorder.calls[0]?.operationId).toBe("11111111-1111-4111-8111-111111111111");
  });

  test("refused locally, nothing sent: a malformed id, a blank merchant id", async () => {
    const { client } = makeClient(fake);
    const bad = (await rejection(client.getOperation("12345"))) as PlatformRequestError;
    expect(bad).toBeInstanceOf(PlatformRequestError);
    expect(bad.issues).toEqual([{ field: "idPlatform", message: "expected a UUID" }]);
    for (const id of ["", "  ", 7 as unknown as string]) {
      const blank = (await rejection(client.getOperationsByMerchantIdDeprecated(id))) as PlatformRequestError;
      expect(blank.issues).toEqual([{ field: "idTransactionMerchant", message: "required" }]);
    }
    expect(fake.received).toHaveLength(0);
  });

  test.each([
    ["by merchant id", "GET", "/api/operation/operation/merhcant/order-1", "[]"],
    ["the bank list", "GET", "/api/masterdata/bank/list", `["Sber"]`],
  ])("%s is a read: retried after a 503", async (name, method, path, data) => {
    fake.route(method, path, { status: 503, body: "" }, { body: specOk(data) });
    const { client } = makeClient(fake);
    await (name === "by merchant id"
      ? client.getOperationsByMerchantIdDeprecated("order-1")
      : client.getBanks());
    expect(fake.received).toHaveLength(2);
  });

  test("a list without totalNumberRecords: the reason names the field", async () => {
    fake.route("POST", "/api/operation/operation/list", { body: specOk("[]") });
    const { client } = makeClient(fake);
    const e = (await rejection(client.listOperations({ skip: 0, take: 5 }))) as PlatformError;
    expect(e.message).toBe(
      `Platform POST /operation/operation/list: operation list does not match the expected shape: totalNumberRecords: missing (traceID ${TRACE})`,
    );
  });
});
