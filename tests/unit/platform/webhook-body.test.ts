import { describe, expect, test } from "vitest";
import { WebhookBodyError, parseWebhookBody } from "@/lib/platform/webhook-body";
import { OP_ID, TRACE, nestedError, nestedOk, operationJson, specError, specOk } from "./fake-platform";

const finalOp = operationJson({ status: `"success"`, amount: "922337203685477.5807" });

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
