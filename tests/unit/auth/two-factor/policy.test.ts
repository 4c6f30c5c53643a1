// Who must enrol, and when step-up asks again: the policy's answers with a fixed clock.
import { describe, expect, test } from "vitest";
import { mustEnrol, noSecondFactor, type SecondFactorState } from "@/lib/auth/two-factor/policy";
import { isFresh, stepUpNeeded } from "@/lib/auth/two-factor/step-up";
import { generateRecoveryCodes, normaliseRecoveryCode } from "@/lib/auth/two-factor/recovery-codes";

const now = new Date("2026-11-23T10:00:00Z");
const minutesAgo = (m: number) => new Date(now.getTime() - m * 60_000);
const policy = {
  twoFactorRequiredRoles: ["admin", "approver"] as ("admin" | "approver")[],
  stepUpFreshMinutes: 5,
};
const state = (s: Partial<SecondFactorState>): SecondFactorState => ({
  ...noSecondFactor,
  sessionId: "s",
  ...s,
});

describe("enrolment required", () => {
  test.each([
    ["admin", {}, true],
    ["approver", {}, true],
    ["finance", {}, false],
    ["support", {}, false],
    ["admin", { enrolled: true }, false],
    ["approver", { identityProviderMfa: true }, false],
  ] as const)("%s with %j must enrol first: %s", (role, s, expected) => {
    expect(mustEnrol(role, state(s), policy)).toBe(expected);
  });

  test("with no required roles nobody must", () => {
    expect(mustEnrol("admin", state({}), { twoFactorRequiredRoles: [] })).toBe(false);
  });
});

describe("step-up", () => {
  test.each([
    ["enrolled, verified 1 min ago", { enrolled: true, verifiedAt: minutesAgo(1) }, null],
    ["enrolled, verified 4 min 59 s ago", { enrolled: true, verifiedAt: minutesAgo(4.99) }, null],
    ["enrolled, verified exactly 5 min ago", { enrolled: true, verifiedAt: minutesAgo(5) }, "totp"],
    ["enrolled, verified 6 min ago", { enrolled: true, verifiedAt: minutesAgo(6) }, "totp"],
    ["enrolled, never verified in this session", { enrolled: true }, "totp"],
    ["single sign-on MFA, 2 min ago", { identityProviderMfa: true, verifiedAt: minutesAgo(2) }, null],
    ["single sign-on MFA, 20 min ago", { identityProviderMfa: true, verifiedAt: minutesAgo(20) }, "sso"],
    [
      "single sign-on MFA and enrolled, 20 min ago",
      { identityProviderMfa: true, enrolled: true, verifiedAt: minutesAgo(20) },
      "totp",
    ],
    ["no second factor at all (not required)", {}, null],
  ] as const)("%s -> %s", (_name, s, expected) => {
    expect(stepUpNeeded(state(s), policy, now)).toBe(expected);
  });

  test("the window follows the setting", () => {
    expect(isFresh(minutesAgo(9), { stepUpFreshMinutes: 10 }, now)).toBe(true);
    expect(isFresh(minutesAgo(2), { stepUpFreshMinutes: 1 }, now)).toBe(false);
  });
});

describe("recovery code format", () => {
  test("10 codes of the form xxxxx-xxxxx, all different, without look-alike characters", () => {
    const codes = generateRecoveryCodes();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[2-9a-hjkmnp-z]{5}-[2-9a-hjkmnp-z]{5}$/);
  });

  test("typed with or without the dash, any case, spaces around: the same code", () => {
    expect(normaliseRecoveryCode(" AB2CD-EF3GH ")).toBe("ab2cdef3gh");
    expect(normaliseRecoveryCode("ab2cdef3gh")).toBe("ab2cdef3gh");
  });

  test.each([
    "",
    "ab2cd-ef3g",
    "ab2cd-ef3ghj",
    "ab1cd-ef3gh",
    "abocd-ef3gh",
    "ab2cd\u0000ef3gh",
    "аb2cd-ef3gh",
  ])("%j is not a recovery code", (input) => {
    expect(normaliseRecoveryCode(input)).toBeNull();
  });
});
