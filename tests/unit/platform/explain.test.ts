// Refusals in words at their edges: which explanation wins when a refusal could have several, the
// platform's blank message, the field named in its words, amounts in the reader's language.
import { describe, expect, test } from "vitest";
import { explainPlatformRefusal, fieldFromMessage, type PlatformRefusal } from "@/lib/platform/explain";
import { platformWordsIn } from "../../support/i18n";

const NB = "\u00a0";
const base: PlatformRefusal = { codeError: null, message: null, traceID: "trace-1" };
const en = (refusal: Partial<PlatformRefusal>) =>
  explainPlatformRefusal({ ...base, ...refusal }, platformWordsIn("en"));

describe("which words", () => {
  test("a field named in the message is used only for invalidRequestParameters", () => {
    expect(en({ codeError: "fraud", message: "field amount looks suspicious" }).message).toBe(
      en({ codeError: "fraud" }).message,
    );
    expect(en({ codeError: "invalidRequestParameters", message: "field amount is wrong" }).message).toContain(
      "amount",
    );
  });

  test("a method is named only for noSuitableTariffForRequest", () => {
    expect(en({ codeError: "fraud", paymentMethod: "psb_psb" }).message).not.toContain("psb_psb");
  });

  test("the shortage's amounts are written in the reader's language", () => {
    const refusal = {
      ...base,
      codeError: "notEnoughMoneyOnBalance",
      message: "required 1500.5 RUB, available 20 RUB",
    };
    const ru = explainPlatformRefusal(refusal, platformWordsIn("ru")).message;
    expect(ru).toContain(`1${NB}500,50`);
    expect(ru).toContain("20,00");
    expect(explainPlatformRefusal(refusal, platformWordsIn("en")).message).toContain(`1,500.50`);
  });
});

describe("the platform's own message", () => {
  test.each([
    [null, null],
    ["", null],
    ["   ", null],
    [" no money ", " no money "],
  ])("%j is shown as %j", (message, shown) => {
    expect(en({ codeError: "fraud", message }).platformMessage).toBe(shown);
  });

  test("a long one is cut at 1,000 characters", () => {
    expect(en({ codeError: "fraud", message: "x".repeat(1001) }).platformMessage).toBe("x".repeat(1000));
  });
});

describe("fieldFromMessage", () => {
  test.each([
    ["Field 'amount': must be positive", "amount"],
    ["field number is required", "number"],
    ["field«amount» is wrong", "amount"],
    ['field "clientIP" invalid', "clientIP"],
    ["the 'bankName' is unknown", "bankName"],
    ["nothing to name", null],
    ["", null],
    [null, null],
  ])("%j -> %j", (message, field) => {
    expect(fieldFromMessage(message)).toBe(field);
  });
});

// internalError is the spec's code for a refused token (status AuthError) and the platform's generic
// failure (status Warning, or the nested dialect's class): the kind decides, and without one (a refusal
// read back from storage) the words claim neither.
describe("internalError and refusals without an envelope", () => {
  const ru = (refusal: Partial<PlatformRefusal>) =>
    explainPlatformRefusal({ ...base, ...refusal }, platformWordsIn("ru"), "payin");

  test("a refused token (kind auth) is the credentials, with or without the code", () => {
    const words = "The platform refused Paydesk's credentials (token). Tell an admin; nothing was created.";
    expect(en({ codeError: "internalError", kind: "auth" })).toMatchObject({ code: "auth", message: words });
    expect(en({ codeError: null, kind: "auth" })).toMatchObject({ code: "auth", message: words });
  });

  test.each([
    ["a Warning", { codeError: "internalError", kind: "business" }],
    ["the nested class", { codeError: "dbTimeout", codeErrorClass: "internalError", kind: "business" }],
  ])("internalError in %s is the platform's failure, not the token", (_what, refusal) => {
    const explained = en(refusal);
    expect(explained.code).toBe("internalError");
    expect(explained.message).not.toMatch(/credentials|token/);
    expect(explained.message).toMatch(/internal error/);
  });

  test("internalError read back without its kind claims neither the token nor that nothing was created", () => {
    const explained = en({ codeError: "internalError" });
    expect(explained.code).toBe("internalError");
    expect(explained.message).not.toMatch(/nothing was created/);
    expect(explained.message).toMatch(/refused credentials \(token\) and for a failure on its side/);
    expect(ru({ codeError: "internalError" }).message).toMatch(/платёж/);
  });

  test("HTTP 400 without an envelope is a refusal (nothing created), not 'could not be reached'", () => {
    const explained = en({ kind: "protocol", httpStatus: 400 });
    expect(explained.code).toBe("refusedWithoutEnvelope");
    expect(explained.message).toMatch(/HTTP 400/);
    expect(explained.message).not.toMatch(/could not be reached/);
    expect(ru({ kind: "protocol", httpStatus: 400 }).message).toMatch(/HTTP 400/);
    // an answer that did not decode is still "could not be read"
    expect(en({ kind: "protocol", httpStatus: 200 }).code).toBe("unavailable");
  });
});
