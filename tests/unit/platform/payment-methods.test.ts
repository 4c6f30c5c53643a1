import { describe, expect, test } from "vitest";
import { isMonoBankMethod, isPayOutMethod, normalisePaymentMethod } from "@/lib/platform/payment-methods";

describe("payment methods", () => {
  test.each([
    ["SBP", "sbp"],
    ["ToCard", "toCard"],
    ["TOACCOUNT", "toAccount"],
    ["transgransbp", "transgranSBP"],
    ["sber_sber", "sber_sber"],
    ["SBER_SBER", "sber_sber"],
    ["gazprom_gazprom", "gazprom_gazprom"],
    ["KZT_C2C", "kzt_c2c"],
    ["azn_quasi", "azn_quasi"],
  ])("%s -> %s", (input, canonical) => {
    expect(normalisePaymentMethod(input)).toBe(canonical);
  });

  test.each(["card", "sber_vtb", "kzt_unknown", "", "_"])("%j is not a method", (input) => {
    expect(normalisePaymentMethod(input)).toBeNull();
  });

  test("mono-bank shape is <alias>_<alias>", () => {
    expect(isMonoBankMethod("psb_psb")).toBe(true);
    expect(isMonoBankMethod("kzt_c2c")).toBe(false);
  });

  test.each([
    ["toCard", true],
    ["sbp", true],
    ["toAccount", true],
    ["tbank_tbank", true],
    ["transgran", false],
    ["transgranSBP", false],
    ["nspk", false],
    ["ecom", false],
    ["mobile", false],
    ["kzt_c2c", false],
  ] as const)("pay-out allows %s: %s", (method, allowed) => {
    expect(isPayOutMethod(method)).toBe(allowed);
  });
});
