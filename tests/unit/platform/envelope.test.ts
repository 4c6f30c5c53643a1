import { describe, expect, test } from "vitest";
import { envelopeError, nonEnvelopeError, readEnvelope } from "@/lib/platform/envelope";
import { parseWireJson } from "@/lib/platform/wire";
import { TRACE, nestedError, nestedOk, operationJson, specError, specOk } from "./fake-platform";

const read = (text: string) => readEnvelope(parseWireJson(text));
const site = {
  method: "POST",
  path: "/host2host/payout",
  httpStatus: 200,
  attempts: 1,
  redact: (s: string) => s.replaceAll("SECRET", "[REDACTED]"),
};

describe("readEnvelope", () => {
  test.each([
    [
      "spec success",
      specOk("{}"),
      { ok: true, status: "Success", codeError: null, traceID: TRACE, dialect: "spec" },
    ],
    [
      "spec warning",
      specError("Warning", "duplicateIdentifier", "dup"),
      { ok: false, status: "Warning", codeError: "duplicateIdentifier", message: "dup", dialect: "spec" },
    ],
    [
      "spec auth",
      specError("AuthError", "internalError", "User data not found"),
      { ok: false, status: "AuthError", codeError: "internalError" },
    ],
    [
      "nested success",
      nestedOk("{}"),
      {
        ok: true,
        status: "success",
        codeError: null,
        codeErrorClass: null,
        message: null,
        traceID: TRACE,
        dialect: "nested",
      },
    ],
    [
      "nested ext code wins",
      nestedError("none", "notEnoughMoneyOnBalance", "Not enough money on balance"),
      {
        ok: false,
        status: "warning",
        codeError: "notEnoughMoneyOnBalance",
        codeErrorClass: null,
        dialect: "nested",
      },
    ],
    [
      "nested coarse code when ext is none",
      nestedError("validationError", "none", "bad"),
      { ok: false, codeError: "validationError", codeErrorClass: "validationError" },
    ],
    [
      "nested accessError status",
      nestedError("internalError", "none", "", "accessError"),
      { ok: false, status: "accessError", message: null },
    ],
    ["status case-insensitive", `{"status":"SUCCESS","data":null,"traceID":"x"}`, { ok: true }],
    [
      "unknown status is a failure",
      `{"status":"Pending","data":null,"traceID":"x"}`,
      { ok: false, status: "Pending" },
    ],
  ])("%s", (_name, text, expected) => {
    expect(read(text)).toMatchObject(expected);
  });

  test("totalNumberRecords in both dialects", () => {
    expect(read(specOk("[]", `,"totalNumberRecords":42`))?.totalNumberRecords).toBe(42);
    expect(read(nestedOk("[]", 7))?.totalNumberRecords).toBe(7);
    expect(read(specOk("{}"))?.totalNumberRecords).toBeNull();
  });

  test.each([
    [
      "problem JSON",
      `{"type":"x","title":"One or more validation errors occurred.","status":400,"errors":{"amount":["bad"]}}`,
    ],
    ["bare operation (status but no data)", operationJson()],
    ["array", "[]"],
    ["string", `"ok"`],
    ["null", "null"],
  ])("%s is not an envelope", (_name, text) => {
    expect(read(text)).toBeNull();
  });
});

describe("errors from responses", () => {
  test("business error keeps code, message, traceID, HTTP status", () => {
    const env = read(specError("Warning", "notEnoughMoneyOnBalance", "Required 10 USDT, available 2 USDT"))!;
    const e = envelopeError(env, site);
    expect(e).toMatchObject({
      kind: "business",
      codeError: "notEnoughMoneyOnBalance",
      traceID: TRACE,
      httpStatus: 200,
      envelopeStatus: "Warning",
    });
    expect(e.platformMessage).toBe("Required 10 USDT, available 2 USDT");
    expect(e.message).toContain("notEnoughMoneyOnBalance");
    expect(e.message).toContain(TRACE);
  });

  test("AuthError is kind auth", () => {
    const env = read(specError("AuthError", "internalError", "User data not found"))!;
    expect(envelopeError(env, site).kind).toBe("auth");
  });

  test("problem body: HTTP status, title and field names; redacted snippet", () => {
    const body = `{"type":"https://tools.ietf.org/html/rfc9110#section-15.5.1","title":"One or more validation errors occurred.","status":400,"errors":{"$.amount":["The JSON value could not be converted. SECRET"]},"traceId":"00-abc-def-00"}`;
    const e = nonEnvelopeError(body, {
      ...site,
      httpStatus: 400,
      headerTraceID: null,
      outcomeUnknown: false,
    });
    expect(e.kind).toBe("protocol");
    expect(e.httpStatus).toBe(400);
    expect(e.traceID).toBe("00-abc-def-00");
    expect(e.message).toContain("One or more validation errors occurred.");
    expect(e.message).toContain("$.amount");
    expect(e.message).not.toContain("SECRET");
    expect(e.bodySnippet).not.toContain("SECRET");
  });

  test.each([
    [502, "<html><body>Bad Gateway</body></html>", "transport", "Bad Gateway"],
    [200, "<!doctype html><p>maintenance</p>", "protocol", "maintenance"],
    [401, "", "auth", "empty body"],
    [404, "x".repeat(2000), "protocol", "…"],
  ])("HTTP %s non-envelope -> %s", (status, body, kind, fragment) => {
    const e = nonEnvelopeError(body, {
      ...site,
      httpStatus: status,
      headerTraceID: "hdr",
      outcomeUnknown: false,
    });
    expect(e.kind).toBe(kind);
    expect(e.httpStatus).toBe(status);
    expect(e.message).toContain(fragment);
    expect(e.traceID).toBe("hdr");
    expect((e.bodySnippet ?? "").length).toBeLessThanOrEqual(501);
  });
});
