// How the wire is read and failures classified, at the edges: envelope statuses that mean the token
// was refused (AuthError, accessError), HTTP statuses without an envelope (401/403 auth, exactly 500
// and 502/503/504 transport, the rest protocol), what is retried, integers and strings from the wire.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import {
  BODY_SNIPPET_LENGTH,
  envelopeError,
  isAuthStatus,
  nonEnvelopeError,
  readEnvelope,
  snippet,
} from "@/lib/platform/envelope";
import { PlatformError, PlatformRequestError } from "@/lib/platform/errors";
import {
  LosslessNumber,
  decimalFromWire,
  integerFromWire,
  isLosslessNumber,
  isWireObject,
  parseWireJson,
  wireToRaw,
} from "@/lib/platform/wire";
import { FakePlatform, TRACE, nestedError, specError, specOk } from "./fake-platform";
import { makeClient, payOut, rejection } from "./helpers";

const read = (text: string) => readEnvelope(parseWireJson(text));
const site = {
  method: "GET",
  path: "/balance",
  httpStatus: 200,
  attempts: 2,
  redact: (s: string) => s.replaceAll("SECRET", "[REDACTED]"),
};
const bare = (
  body: string,
  httpStatus: number | null,
  over: { outcomeUnknown?: boolean; headerTraceID?: string | null } = {},
) =>
  nonEnvelopeError(body, {
    ...site,
    httpStatus,
    headerTraceID: over.headerTraceID ?? null,
    outcomeUnknown: over.outcomeUnknown ?? false,
  });

describe("envelope statuses that mean the token was refused", () => {
  test.each([
    ["AuthError", true],
    ["autherror", true],
    ["accessError", true],
    [" ACCESSERROR ", true],
    ["Warning", false],
    ["Error", false],
    ["Success", false],
    ["", false],
    ["access", false],
  ])("isAuthStatus(%j) = %s", (status, auth) => {
    expect(isAuthStatus(status)).toBe(auth);
  });

  test.each([
    ["spec accessError", specError("accessError", "internalError", "no access"), "auth"],
    ["nested accessError", nestedError("internalError", "none", "no access", "accessError"), "auth"],
    ["nested AuthError", nestedError("internalError", "none", "who?", "AuthError"), "auth"],
    ["spec Warning", specError("Warning", "fraud", "rate"), "business"],
    ["nested error", nestedError("validationError", "invalidRequestParameters", "bad", "error"), "business"],
  ])("%s -> kind %s", (_name, text, kind) => {
    const env = read(text)!;
    expect(env.ok).toBe(false);
    expect(envelopeError(env, site).kind).toBe(kind);
  });
});

describe("envelope reading details", () => {
  test("the whole spec envelope", () => {
    expect(read(`{"status":" Success ","data":[1],"traceId":"t-lower","totalNumberRecords":"12"}`)).toEqual({
      ok: true,
      status: " Success ",
      data: [new LosslessNumber("1")],
      codeError: null,
      codeErrorClass: null,
      message: null,
      traceID: "t-lower",
      totalNumberRecords: 12,
      dialect: "spec",
    });
  });

  test("the whole nested envelope: ext code, coarse class, traceID from x-request-id", () => {
    expect(
      read(
        `{"result":{"status":"warning","x-request-id":"t-x","traceID":"t-inner","codeError":" validationError ","codeErrorExt":" fraud ","message":" slow down "},"traceID":"t-outer"}`,
      ),
    ).toEqual({
      ok: false,
      status: "warning",
      data: null,
      codeError: "fraud",
      codeErrorClass: "validationError",
      message: " slow down ",
      traceID: "t-x",
      totalNumberRecords: null,
      dialect: "nested",
    });
  });

  test.each([
    [`{"result":{"status":"success","traceID":"t-inner"},"traceID":"t-outer"}`, "t-inner"],
    [`{"result":{"status":"success","x-request-id":" "},"traceID":"t-outer"}`, "t-outer"],
    [`{"result":{"status":"success"}}`, null],
    [`{"status":"Success","data":null,"traceID":"","traceId":"t-2"}`, "t-2"],
  ])("traceID fallbacks: %s -> %j", (text, traceID) => {
    expect(read(text)?.traceID).toBe(traceID);
  });

  test.each([
    [`{"status":"Warning","codeError":"fraud"}`, "spec"],
    [`{"status":"Warning","traceID":"t"}`, "spec"],
    [`{"status":"Success","data":null}`, "spec"],
    [`{"status":"Success"}`, null], // a bare status (an operation has one too) is not an envelope
    [`{"status":1,"data":null}`, null],
    [`{"result":{"status":1},"data":null}`, null],
    [`{"result":"success","status":"Success","data":null}`, "spec"],
  ])("%s -> dialect %j", (text, dialect) => {
    expect(read(text)?.dialect ?? null).toBe(dialect);
  });

  test.each([
    ["none", null],
    [" NONE ", null],
    ["", null],
    ["   ", null],
    [" fraud ", "fraud"],
  ])("spec codeError %j -> %j; blank messages are null", (code, expected) => {
    const env = read(JSON.stringify({ status: "Warning", data: null, codeError: code, message: "  " }))!;
    expect(env.codeError).toBe(expected);
    expect(env.message).toBeNull();
  });

  test("nested: the coarse class when the ext code is none", () => {
    expect(read(nestedError("internalError", "NONE", "x"))).toMatchObject({
      codeError: "internalError",
      codeErrorClass: "internalError",
    });
  });
});

describe("envelope errors in words", () => {
  test("code, redacted message and traceID", () => {
    const e = envelopeError(read(specError("Warning", "fraud", "token SECRET too fast"))!, site);
    expect(e.message).toBe(
      `Platform GET /balance answered Warning: fraud - token [REDACTED] too fast (traceID ${TRACE})`,
    );
    expect(e).toMatchObject({
      kind: "business",
      method: "GET",
      path: "/balance",
      codeError: "fraud",
      codeErrorClass: null,
      platformMessage: "token [REDACTED] too fast",
      httpStatus: 200,
      traceID: TRACE,
      envelopeStatus: "Warning",
      attempts: 2,
      outcomeUnknown: false,
      bodySnippet: null,
    });
  });

  test("no code: the coarse class, else the status; no message, no traceID", () => {
    const coarse = read(`{"result":{"status":"error","codeError":"validationError","codeErrorExt":"none"}}`)!;
    expect(envelopeError(coarse, site).message).toBe("Platform GET /balance answered error: validationError");
    const nothing = read(`{"status":"Pending","data":null}`)!;
    expect(envelopeError(nothing, site).message).toBe("Platform GET /balance answered Pending: Pending");
  });
});

describe("HTTP statuses without an envelope", () => {
  test.each([
    [401, "auth"],
    [403, "auth"],
    [500, "transport"],
    [502, "transport"],
    [503, "transport"],
    [504, "transport"],
    [599, "transport"],
    [499, "protocol"],
    [400, "protocol"],
    [404, "protocol"],
    [429, "protocol"],
    [200, "protocol"],
    [302, "protocol"],
    [null, "protocol"],
  ])("HTTP %s -> %s", (status, kind) => {
    const e = bare("<html>nope</html>", status);
    expect(e.kind).toBe(kind);
    expect(e.httpStatus).toBe(status);
    expect(e.message).toBe(
      `Platform GET /balance returned HTTP ${status ?? "?"} without a response envelope: <html>nope</html>`,
    );
  });

  test("the fields of the error: snippet, header traceID, outcome and attempts passed through", () => {
    const e = bare("  <p>\n  busy  </p> ", 503, { outcomeUnknown: true, headerTraceID: "hdr-1" });
    expect(e).toMatchObject({
      kind: "transport",
      method: "GET",
      path: "/balance",
      bodySnippet: "<p> busy </p>",
      traceID: "hdr-1",
      outcomeUnknown: true,
      attempts: 2,
      codeError: null,
      envelopeStatus: null,
    });
  });

  test("an empty body says so", () => {
    expect(bare("", 403).message).toBe(
      "Platform GET /balance returned HTTP 403 without a response envelope: empty body",
    );
    expect(bare("   \n", 502).message).toMatch(/: empty body$/);
  });

  test.each([
    [
      "title and fields, messages joined",
      `{"title":"Invalid","errors":{"amount":["bad","worse"],"clientIP":["SECRET missing"]},"traceId":"pt-1"}`,
      "Invalid (amount: bad worse; clientIP: [REDACTED] missing)",
      "pt-1",
    ],
    ["title only", `{"title":"Forbidden","traceID":"pt-2"}`, "Forbidden", "pt-2"],
    [
      "a field without messages",
      `{"title":"Invalid","errors":{"amount":"bad","x":[1,null]}}`,
      "Invalid (amount; x)",
      "hdr",
    ],
    ["empty errors", `{"title":"Invalid","errors":{}}`, "Invalid", "hdr"],
    ["errors not an object", `{"title":"Invalid","errors":["a"]}`, "Invalid", "hdr"],
  ])("problem body, %s", (_name, body, summary, traceID) => {
    const e = bare(body, 400, { headerTraceID: "hdr" });
    expect(e.message).toBe(`Platform GET /balance returned HTTP 400 without a response envelope: ${summary}`);
    expect(e.traceID).toBe(traceID);
  });

  test("JSON without a title is shown as its snippet", () => {
    const e = bare(`{"error":"nope"}`, 400);
    expect(e.message).toMatch(/envelope: \{"error":"nope"\}$/);
  });

  test.each([
    [BODY_SNIPPET_LENGTH - 1, false],
    [BODY_SNIPPET_LENGTH, false],
    [BODY_SNIPPET_LENGTH + 1, true],
  ])("a snippet of %i characters is cut: %s", (length, cut) => {
    const text = snippet("y".repeat(length), (s) => s);
    expect(text).toBe(cut ? `${"y".repeat(BODY_SNIPPET_LENGTH)}…` : "y".repeat(length));
  });

  test("the snippet is redacted before it is cut", () => {
    expect(BODY_SNIPPET_LENGTH).toBe(500);
    expect(snippet(`${"a".repeat(495)} SECRET tail`, site.redact)).toBe(`${"a".repeat(495)} [RED…`);
  });
});

describe("the transport: what is retried and what an error says about the outcome", () => {
  let fake: FakePlatform;
  beforeAll(async () => {
    fake = await FakePlatform.start();
  });
  afterAll(() => fake.close());
  beforeEach(() => fake.reset());

  test.each([
    [500, 3, "transport"],
    [502, 3, "transport"],
    [503, 3, "transport"],
    [504, 3, "transport"],
    [429, 3, "protocol"],
    [499, 1, "protocol"],
    [403, 1, "auth"],
    [401, 1, "auth"],
    [404, 1, "protocol"],
  ])("a read answered HTTP %i without an envelope: %i attempts, kind %s", async (status, attempts, kind) => {
    fake.route("GET", "/api/balance", { status, body: "<html>x</html>" });
    const { client, recorder } = makeClient(fake);
    const e = (await rejection(client.getBalance())) as PlatformError;
    expect(e).toMatchObject({ kind, httpStatus: status, attempts, outcomeUnknown: false });
    expect(fake.received).toHaveLength(attempts);
    expect(recorder.calls.map((c) => c.httpStatus)).toEqual(Array(attempts).fill(status));
  });

  test("a read answered 500 with an error envelope is retried, and ends as the envelope's error", async () => {
    fake.route("GET", "/api/balance", { status: 500, body: specError("Warning", "internalError", "boom") });
    const { client, recorder } = makeClient(fake);
    const e = (await rejection(client.getBalance())) as PlatformError;
    expect(e).toMatchObject({ kind: "business", codeError: "internalError", attempts: 3, httpStatus: 500 });
    expect(recorder.calls.map((c) => c.error)).toEqual(["HTTP 500", "HTTP 500", null]);
  });

  test.each([
    [200, "protocol", true],
    [302, "protocol", true],
    [400, "protocol", false],
    [401, "auth", false],
    [403, "auth", false],
    [499, "protocol", false],
    [500, "transport", true],
    [504, "transport", true],
  ])(
    "a creation answered HTTP %i without an envelope: one attempt, kind %s, outcome unknown %s",
    async (status, kind, unknown) => {
      fake.route("POST", "/api/host2host/payout", { status, body: "<html>x</html>" });
      const { client } = makeClient(fake);
      const e = (await rejection(client.createPayOut(payOut))) as PlatformError;
      expect(e).toMatchObject({ kind, httpStatus: status, attempts: 1, outcomeUnknown: unknown });
      expect(fake.received).toHaveLength(1);
    },
  );

  test("an accessError envelope on a read is an auth error, not retried", async () => {
    fake.route("GET", "/api/balance", { body: nestedError("internalError", "none", "", "accessError") });
    const { client } = makeClient(fake);
    const e = (await rejection(client.getBalance())) as PlatformError;
    expect(e).toMatchObject({ kind: "auth", envelopeStatus: "accessError", attempts: 1 });
    expect(fake.received).toHaveLength(1);
  });

  test("an envelope's traceID wins over the header's; the header fills in when the envelope has none", async () => {
    fake.route("GET", "/api/balance", {
      body: specError("Warning", "fraud", "x"),
      headers: { "x-request-id": "hdr-a" },
    });
    const { client, recorder } = makeClient(fake);
    expect(((await rejection(client.getBalance())) as PlatformError).traceID).toBe(TRACE);
    fake.reset();
    fake.route("GET", "/api/balance", {
      body: `{"status":"Warning","codeError":"fraud","data":null}`,
      headers: { traceid: "hdr-b" },
    });
    expect(((await rejection(client.getBalance())) as PlatformError).traceID).toBe("hdr-b");
    expect(recorder.calls.at(-1)?.traceID).toBe("hdr-b");
  });

  test("a success envelope answered with HTTP 200 is not an error even with odd casing", async () => {
    fake.route("GET", "/api/masterdata/bank/list", {
      body: specOk(`["Sber"]`).replace("Success", "sUCCESS"),
    });
    const { client } = makeClient(fake);
    expect((await client.getBanks()).banks).toEqual([{ id: null, name: "Sber" }]);
  });
});

describe("numbers and strings from the wire", () => {
  test.each([
    [new LosslessNumber("42"), 42],
    [new LosslessNumber("-7"), -7],
    [new LosslessNumber("0"), 0],
    [new LosslessNumber("9007199254740991"), 9007199254740991],
    [new LosslessNumber("9007199254740992"), null],
    [new LosslessNumber("-9007199254740992"), null],
    [new LosslessNumber("4.0"), null],
    [new LosslessNumber("1e3"), null],
    ["42", 42],
    ["-3", -3],
    ["007", 7],
    [" 42", null],
    ["42 ", null],
    ["4.5", null],
    ["", null],
    ["+1", null],
    [42, null], // a JS number may already have lost digits
    [null, null],
    [undefined, null],
    [{}, null],
  ])("integerFromWire(%j) = %j", (value, expected) => {
    expect(integerFromWire(value)).toBe(expected);
  });

  test.each([
    ['{"s":"\\u0001abc","n":5}', "\u0001abc"],
    ['{"s":"\\u00012","n":5}', "\u00012"],
    ['{"s":"\\u0001","n":5}', "\u0001"],
    ['{"n":5,"s":"x\\u0001"}', "x\u0001"],
  ])("a string starting with (or holding) U+0001 stays a string: %s", (text, s) => {
    const value = parseWireJson(text) as { s: unknown; n: unknown };
    expect(value.s).toBe(s);
    expect(isLosslessNumber(value.n)).toBe(true);
    expect((value.n as LosslessNumber).value).toBe("5");
  });

  test("U+0001 in an array and as a key stays text", () => {
    expect(parseWireJson('["\\u0001", 1]')).toEqual(["\u0001", new LosslessNumber("1")]);
    expect(parseWireJson('{"\\u0001k":"v"}')).toEqual({ "\u0001k": "v" });
  });

  test.each([
    ["[0]", "0"],
    ["[9]", "9"],
    ["[-0]", "-0"],
    ["[-9.5]", "-9.5"],
    ["[1E+2]", "1E+2"],
    ["[1e-2]", "1e-2"],
    ["[12.5e3]", "12.5e3"],
  ])("number literal %s is kept as its exact text", (text, literal) => {
    const [n] = parseWireJson(text) as [LosslessNumber];
    expect(isLosslessNumber(n)).toBe(true);
    expect(n.value).toBe(literal);
  });

  test.each([
    ['{"s":"-1"}', "-1"],
    ['{"s":"a-1e5"}', "a-1e5"],
    ['{"s":"\\"5\\""}', '"5"'],
    ['{"s":"back\\\\","n":1}', "back\\"],
  ])("digits inside strings are text: %s", (text, s) => {
    expect((parseWireJson(text) as { s: unknown }).s).toBe(s);
  });

  test("true, false and null pass through both paths", () => {
    expect(parseWireJson("[true,false,null,1]")).toEqual([true, false, null, new LosslessNumber("1")]);
    expect(parseWireJson('[true,false,null,"\\u0001"]')).toEqual([true, false, null, "\u0001"]);
  });

  test("wireToRaw and isWireObject", () => {
    expect(wireToRaw(parseWireJson('{"a":[1,{"b":2.50}],"c":null,"d":"x","e":true}'))).toEqual({
      a: ["1", { b: "2.50" }],
      c: null,
      d: "x",
      e: true,
    });
    expect(isWireObject({})).toBe(true);
    expect(isWireObject([])).toBe(false);
    expect(isWireObject(null)).toBe(false);
    expect(isWireObject(new LosslessNumber("1"))).toBe(false);
    expect(isWireObject("x")).toBe(false);
  });

  test.each([
    [new LosslessNumber("62.50"), "62.5"],
    [new LosslessNumber("-0.0001"), "-0.0001"],
    ["0", "0"],
    ["-5", "-5"],
  ])("decimalFromWire(%j) = %s", (value, expected) => {
    expect(decimalFromWire(value)?.toFixed()).toBe(expected);
  });

  test.each([[" 1"], ["1e3"], [new LosslessNumber("1e3")], [""], [Number.NaN], [true], [[]]])(
    "decimalFromWire(%j) = null",
    (value) => {
      expect(decimalFromWire(value)).toBeNull();
    },
  );
});

describe("error objects", () => {
  test("defaults of a PlatformError and its loggable form (no body snippet in logs)", () => {
    const e = new PlatformError({ kind: "transport", method: "GET", path: "/x", description: "down" });
    expect(e).toMatchObject({
      name: "PlatformError",
      message: "down",
      codeError: null,
      codeErrorClass: null,
      platformMessage: null,
      httpStatus: null,
      traceID: null,
      envelopeStatus: null,
      bodySnippet: null,
      outcomeUnknown: false,
      attempts: 1,
    });
    expect(e).toBeInstanceOf(Error);
    expect(
      new PlatformError({
        kind: "protocol",
        method: "POST",
        path: "/p",
        description: "d",
        codeError: "c",
        codeErrorClass: "k",
        platformMessage: "m",
        httpStatus: 418,
        traceID: "t",
        envelopeStatus: "s",
        bodySnippet: "b",
        outcomeUnknown: true,
        attempts: 3,
      }).toJSON(),
    ).toEqual({
      name: "PlatformError",
      kind: "protocol",
      message: "d",
      method: "POST",
      path: "/p",
      codeError: "c",
      codeErrorClass: "k",
      platformMessage: "m",
      httpStatus: 418,
      traceID: "t",
      envelopeStatus: "s",
      outcomeUnknown: true,
      attempts: 3,
    });
  });

  test("PlatformRequestError without issues, and an issue about the whole body", () => {
    const none = new PlatformRequestError([]);
    expect(none.message).toBe("Request refused before sending");
    expect(none.field).toBeNull();
    expect(none.name).toBe("PlatformRequestError");
    const body = new PlatformRequestError([{ field: "", message: "must be an object" }], { cause: "x" });
    expect(body.message).toBe("Request refused before sending: (body): must be an object");
    expect(body.field).toBe("");
    expect(body.cause).toBe("x");
  });
});
