import { describe, expect, test } from "vitest";
import { maskNumber, maskRequestBody, maskResponseBody, RESPONSE_BODY_LIMIT } from "@/lib/platform/recorder";
import { callRecord, InMemoryRecorder } from "../../support/in-memory-recorder";
import { LosslessNumber } from "@/lib/platform/wire";

describe("masking", () => {
  test.each([
    ["4111111111111234", "************1234"],
    ["+79001234567", "********4567"],
    ["40817810099910004312", "****************4312"],
    ["1234", "****"],
    ["", ""],
  ])("maskNumber(%s) = %s", (input, masked) => {
    expect(maskNumber(input)).toBe(masked);
  });

  test("request body: recipient number masked, amount exact, other fields kept", () => {
    const masked = maskRequestBody({
      paymentMethod: "toCard",
      amount: new LosslessNumber("922337203685477.5807"),
      number: "4111111111111234",
      bankName: "Sber",
      nested: { number: "+79001234567" },
    });
    expect(masked).toBe(
      `{"paymentMethod":"toCard","amount":922337203685477.5807,"number":"************1234","bankName":"Sber","nested":{"number":"********4567"}}`,
    );
    expect(masked).not.toContain("4111111111111234");
  });

  test("no body -> null", () => {
    expect(maskRequestBody(undefined)).toBeNull();
  });
});

describe("maskResponseBody", () => {
  test("masks recipient numbers in the stored response and keeps amounts exact", () => {
    const text =
      '{"status":"Success","data":{"amount":922337203685477.5807,"paymentDetailsData":{"number":"4276380012345678"}},"traceID":"t"}';
    const stored = maskResponseBody(text);
    expect(stored).toContain('"number":"************5678"');
    expect(stored).toContain("922337203685477.5807");
    expect(stored).not.toContain("4276380012345678");
  });

  test("cuts long responses and says how long they were", () => {
    const text = JSON.stringify({ data: "x".repeat(RESPONSE_BODY_LIMIT * 2) });
    const stored = maskResponseBody(text);
    expect(stored.length).toBeLessThan(RESPONSE_BODY_LIMIT + 100);
    expect(stored).toMatch(/\[cut: \d+ characters in all\]$/);
  });

  test("keeps a non-JSON body as text", () => {
    expect(maskResponseBody("<html>Bad gateway</html>")).toBe("<html>Bad gateway</html>");
  });
});

describe("InMemoryRecorder", () => {
  test("finds records by traceID", () => {
    const r = new InMemoryRecorder();
    const base = callRecord();
    r.record({ ...base, traceID: "a" });
    r.record({ ...base, traceID: "b" });
    expect(r.byTraceID("b")).toHaveLength(1);
    r.clear();
    expect(r.calls).toHaveLength(0);
  });
});
