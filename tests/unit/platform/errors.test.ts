import { describe, expect, test } from "vitest";
import {
  PlatformError,
  PlatformRequestError,
  hasErrorCode,
  isPlatformError,
  parseBalanceShortage,
} from "@/lib/platform/errors";

describe("parseBalanceShortage", () => {
  test.each([
    ["Not enough money on balance. Required: 150.5 USDT, available: 20 USDT", "150.5", "20", "USDT"],
    ["Not enough money on balance: required 1000.0001 USDT, available 0 USDT", "1000.0001", "0", "USDT"],
    ["Insufficient funds; amount 75 USDT; balance 12,5 USDT", "75", "12.5", "USDT"],
    ["Недостаточно средств: требуется 150 USDT, доступно 20 USDT", "150", "20", "USDT"],
    ["Required USDT 10, available USDT 2", "10", "2", "USDT"],
  ])("%s", (message, required, available, currency) => {
    const s = parseBalanceShortage(message);
    expect(s?.required?.toFixed()).toBe(required);
    expect(s?.available?.toFixed()).toBe(available);
    expect(s?.currency).toBe(currency);
  });

  test.each([null, "", "Not enough money on balance"])("%j -> null", (message) => {
    expect(parseBalanceShortage(message)).toBeNull();
  });
});

describe("error classes", () => {
  test("PlatformError carries code, message, status and traceID; toJSON is loggable", () => {
    const e = new PlatformError({
      kind: "business",
      method: "POST",
      path: "/host2host/payout",
      description: "Platform POST /host2host/payout answered Warning: fraud",
      codeError: "fraud",
      platformMessage: "Client rate exceeded",
      httpStatus: 200,
      traceID: "t-1",
      envelopeStatus: "Warning",
    });
    expect(isPlatformError(e)).toBe(true);
    expect(hasErrorCode(e, "fraud")).toBe(true);
    expect(hasErrorCode(e, "duplicateIdentifier")).toBe(false);
    expect(e.toJSON()).toMatchObject({
      kind: "business",
      codeError: "fraud",
      traceID: "t-1",
      httpStatus: 200,
      outcomeUnknown: false,
    });
    expect(hasErrorCode(new Error("fraud"), "fraud")).toBe(false);
  });

  test("PlatformRequestError names the first field", () => {
    const e = new PlatformRequestError([
      { field: "amount", message: "too many decimals" },
      { field: "clientIP", message: "bad" },
    ]);
    expect(e.field).toBe("amount");
    expect(e.message).toContain("amount: too many decimals");
    expect(e.message).toContain("clientIP: bad");
  });
});
