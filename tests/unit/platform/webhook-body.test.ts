import { describe, expect, test } from "vitest";
import {
  MAX_DEPTH,
  TRACE_ID_MAX_LENGTH,
  WebhookBodyError,
  parseWebhookBody,
} from "@/lib/platform/webhook-body";
import { OP_ID, TRACE, nestedError, nestedOk, operationJson, specError, specOk } from "./fake-platform";

const finalOp = operationJson({ status: `"success"`, amount: "922337203685477.5807" });

function refusal(text: string): WebhookBodyError {
  try {
    parseWebhookBody(text);
  } catch (e) {
    expect(e).toBeInstanceOf(WebhookBodyError);
    return e as WebhookBodyError;
  }
  return expect.unreachable();
}

describe("parseWebhookBody", () => {
  test.each([
    ["envelope", specOk(finalOp), TRACE],
    ["nested", nestedOk(finalOp), TRACE],
    ["bare", finalOp, null],
  ] as const)("%s form", (form, text, traceID) => {
    const parsed = parseWebhookBody(text);
    expect(parsed.form).toBe(form);
    expect(parsed.traceID).toBe(traceID);
    expect(parsed.operation.id).toBe(OP_ID);
    expect(parsed.operation.status).toBe("success");
    expect(parsed.operation.amount.toFixed()).toBe("922337203685477.5807");
    expect(parsed.operation.raw.amount).toBe("922337203685477.5807");
  });

  test.each([
    ["", "empty"],
    ["   ", "empty"],
    ["<html></html>", "not-json"],
    ["[1,2]", "not-an-object"],
    [specError("Warning", "internalError", "x"), "not-success"],
    [nestedError("none", "fraud", "x"), "not-success"],
    [`{"status":"Success","data":null,"traceID":"${TRACE}"}`, "no-operation"],
    [operationJson({ amount: "" }), "invalid-operation"],
    [`{"hello":"world"}`, "invalid-operation"],
  ])("%j -> %s", (text, reason) => {
    try {
      parseWebhookBody(text);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(WebhookBodyError);
      expect((e as WebhookBodyError).reason).toBe(reason);
    }
  });

  test("an amount in exponent notation makes the operation invalid (spec: no scientific notation)", () => {
    const error = refusal(specOk(operationJson({ amount: "1e300000000" })));
    expect(error).toMatchObject({ reason: "invalid-operation", traceID: TRACE });
    expect(error.facts.detail).toBe("amount: expected a decimal number");
  });

  test("a leading byte order mark is ignored (RFC 8259 lets a receiver)", () => {
    const parsed = parseWebhookBody(`\uFEFF${specOk(finalOp)}`);
    expect(parsed).toMatchObject({ form: "envelope", traceID: TRACE });
    expect(parsed.operation.amount.toFixed()).toBe("922337203685477.5807");
  });

  // The parsers' own messages quote the body: lossless-json the whole bad number, V8 the text around it.
  test.each([
    [
      '{"status":"Success","data":{"paymentDetailsData":{"number":4276123456789012.}}}',
      "invalid number at position 76",
    ],
    ['{"data":{"number":"4276123456789012" "x"}}', "comma expected at position 37"],
  ])("not JSON: the error's kind and position only, none of the body (%s)", (text, detail) => {
    const error = refusal(text);
    expect(error.reason).toBe("not-json");
    expect(error.facts.detail).toBe(detail);
    expect(error.message).toBe(`Webhook body is not JSON: ${detail}`);
  });

  test("invalid operation inside an envelope keeps the traceID", () => {
    try {
      parseWebhookBody(specOk(operationJson({ status: `"weird"` })));
      expect.unreachable();
    } catch (e) {
      expect((e as WebhookBodyError).traceID).toBe(TRACE);
      expect((e as WebhookBodyError).message).toMatch(/status/);
    }
  });
});

// PostgreSQL cannot store U+0000 (text or jsonb) nor a lone UTF-16 surrogate (jsonb), and JSON text can
// carry both as escapes: a body holding either anywhere is refused on receipt, the place named (in
// escapes, so the note itself can be stored), instead of failing the write of the delivery.
describe("text the database cannot store", () => {
  const op = operationJson();
  test.each([
    ["NUL in the traceID", `{"status":"Success","data":${op},"traceID":"abc\\u0000def"}`, "traceID", "NUL"],
    [
      "NUL in the nested dialect's x-request-id",
      `{"result":{"status":"success","x-request-id":"a\\u0000","codeError":"none"},"data":${op}}`,
      "result.x-request-id",
      "NUL",
    ],
    [
      "NUL in a refused envelope's status",
      `{"status":"Warn\\u0000","data":null,"traceID":"t"}`,
      "status",
      "NUL",
    ],
    [
      "a lone surrogate in codeError",
      `{"status":"Warning","data":null,"codeError":"x\\ud800","traceID":"t"}`,
      "codeError",
      "\\ud800",
    ],
    ["a lone low surrogate in the traceID", specOk(op).replace(TRACE, "t\\udc00"), "traceID", "\\udc00"],
    [
      "NUL in an operation field",
      specOk(operationJson({ idTransactionMerchant: `"order\\u00001"` })),
      "data.idTransactionMerchant",
      "NUL",
    ],
    [
      "a lone surrogate in an unknown key's value",
      specOk(operationJson({ comment: `"x\\ud800y"` })),
      "data.comment",
      "\\ud800",
    ],
    ["a lone surrogate in a key", specOk(operationJson({ "k\\udfffey": `1` })), "data.k\\udfffey", "\\udfff"],
    ["NUL in a key of the bare form", operationJson({ "a\\u0000": `[1,"x"]` }), "a\\u0000", "NUL"],
    ["NUL in an array item", operationJson({ list: `["ok",{"x":"\\u0000"}]` }), "list[1].x", "NUL"],
  ])("%s", (_name, text, path, what) => {
    expect.assertions(4);
    try {
      parseWebhookBody(text);
    } catch (e) {
      const error = e as WebhookBodyError;
      expect(error).toBeInstanceOf(WebhookBodyError);
      expect(error.reason).toBe("unstorable-text");
      expect(error.facts.detail).toBe(
        `${path}: holds ${what === "NUL" ? "a NUL character (\\u0000)" : `a lone surrogate (${what})`}`,
      );
      // the detail itself is storable
      expect(error.facts.detail).not.toMatch(/[\u0000\p{Cs}]/u);
    }
  });

  test("a surrogate pair, written raw or escaped, is text like any other", () => {
    const parsed = parseWebhookBody(specOk(operationJson({ comment: `"😀 \\ud83d\\ude00"` })));
    expect(parsed.operation.raw.comment).toBe("😀 😀");
  });

  test("a traceID longer than the spec's UUID by far is refused, with its length", () => {
    const long = "a".repeat(6000);
    for (const text of [
      specOk(operationJson()).replace(TRACE, long),
      nestedOk(operationJson()).replace(TRACE, long),
    ]) {
      expect.soft(() => parseWebhookBody(text)).toThrow(WebhookBodyError);
      try {
        parseWebhookBody(text);
      } catch (e) {
        expect((e as WebhookBodyError).reason).toBe("trace-id-too-long");
        expect((e as WebhookBodyError).facts).toMatchObject({ length: 6000, limit: TRACE_ID_MAX_LENGTH });
      }
    }
    const longest = "b".repeat(TRACE_ID_MAX_LENGTH);
    expect(parseWebhookBody(specOk(operationJson()).replace(TRACE, longest)).traceID).toBe(longest);
  });
});

// A few kilobytes of `[` used to exhaust the stack after the parse (a RangeError: 503, sent again forever).
describe("nesting", () => {
  const nestedIn = (levels: number, leaf = `"x"`) =>
    specOk(operationJson({ deep: `${"[".repeat(levels)}${leaf}${"]".repeat(levels)}` }));
  const reasonOf = (text: string) => {
    try {
      parseWebhookBody(text);
      return "parsed";
    } catch (e) {
      return e instanceof WebhookBodyError ? e.reason : `not a WebhookBodyError: ${String(e)}`;
    }
  };

  test("up to MAX_DEPTH levels (the envelope and the operation count) is a webhook", () => {
    expect(reasonOf(nestedIn(MAX_DEPTH - 2))).toBe("parsed");
    expect(reasonOf(nestedIn(MAX_DEPTH - 2, "1.5"))).toBe("parsed");
    expect(reasonOf(nestedIn(MAX_DEPTH - 3, `{"a":null}`))).toBe("parsed");
    expect(reasonOf(nestedIn(MAX_DEPTH - 1))).toBe("too-deep");
  });

  test.each([100, 3000, 5000, 8000, 12000, 30000])("%i levels: refused, never an exception", (levels) => {
    expect(["too-deep", "not-json"]).toContain(reasonOf(nestedIn(levels)));
  });

  test("a key deep inside with a NUL: too deep first", () => {
    const text = specOk(operationJson({ deep: `${"[".repeat(40)}{"\\u0000":1}${"]".repeat(40)}` }));
    expect(reasonOf(text)).toBe("too-deep");
  });
});
