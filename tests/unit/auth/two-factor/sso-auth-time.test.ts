// Step-up through single sign-on counts from the identity provider's `auth_time` (when the person last
// signed in there). A token without a usable one says nothing about a fresh sign-in: an identity provider
// that ignores `prompt=login` / `max_age=0` hands back its old session, and the step-up must not pass.
import { describe, expect, test } from "vitest";
import { providerMfa, SSO_CLOCK_TOLERANCE_SECONDS } from "@/lib/auth/sso";
import { noSecondFactor } from "@/lib/auth/two-factor/policy";
import { stepUpNeeded } from "@/lib/auth/two-factor/step-up";

const now = new Date("2026-11-23T10:00:00Z");
const nowSeconds = now.getTime() / 1000;
const idToken = (claims: object) =>
  `${Buffer.from('{"alg":"RS256"}').toString("base64url")}.${Buffer.from(JSON.stringify(claims)).toString("base64url")}.sig`;

describe("providerMfa: the moment of the sign-in at the identity provider", () => {
  test("no auth_time: MFA is reported, but no moment (never now)", () => {
    expect(providerMfa({ amr: ["mfa"] }, null, now)).toEqual({ mfa: true, at: null });
    expect(providerMfa({}, idToken({ amr: ["mfa"] }), now)).toEqual({ mfa: true, at: null });
  });

  test.each([
    ["a string", String(nowSeconds)],
    ["null", null],
    ["NaN", Number.NaN],
    ["Infinity", Number.POSITIVE_INFINITY],
    ["an array", [nowSeconds]],
    ["a boolean", true],
  ])("auth_time as %s: no moment", (_case, authTime) => {
    expect(providerMfa({ amr: ["mfa"], auth_time: authTime }, null, now).at).toBeNull();
  });

  test("read from the id token too: a string there is no moment either", () => {
    expect(providerMfa({}, idToken({ amr: ["mfa"], auth_time: String(nowSeconds) }), now).at).toBeNull();
    expect(providerMfa({}, idToken({ amr: ["mfa"], auth_time: nowSeconds - 60 }), now).at).toEqual(
      new Date((nowSeconds - 60) * 1000),
    );
  });

  test("in the future beyond the clock tolerance: no moment", () => {
    for (const ahead of [SSO_CLOCK_TOLERANCE_SECONDS + 1, 3600, 10 * 365 * 86400]) {
      expect(providerMfa({ amr: ["mfa"], auth_time: nowSeconds + ahead }, null, now).at).toBeNull();
    }
  });

  test("a few seconds ahead (the provider's clock within the tolerance the id token check allows): now", () => {
    expect(SSO_CLOCK_TOLERANCE_SECONDS).toBeLessThanOrEqual(30);
    for (const ahead of [1, SSO_CLOCK_TOLERANCE_SECONDS]) {
      expect(providerMfa({ amr: ["mfa"], auth_time: nowSeconds + ahead }, null, now).at).toEqual(now);
    }
  });

  test("in the past: that moment, so an old session at the provider is not a fresh step-up", () => {
    const hourAgo = nowSeconds - 3600;
    expect(providerMfa({ amr: ["mfa"], auth_time: hourAgo }, null, now).at).toEqual(new Date(hourAgo * 1000));
  });
});

describe("the session such a sign-in opens (as lib/auth/config.ts stores it)", () => {
  const sessionAfter = (claims: { amr: string[]; auth_time?: unknown }) => {
    const mfa = providerMfa(claims, null, now);
    return { ...noSecondFactor, identityProviderMfa: mfa.mfa, verifiedAt: mfa.mfa ? mfa.at : null };
  };
  const policy = { stepUpFreshMinutes: 5 };

  test("a step-up without auth_time is not fresh: it asks for a sign-in again", () => {
    expect(stepUpNeeded(sessionAfter({ amr: ["mfa"] }), policy, now)).toBe("sso");
  });

  test("a step-up whose auth_time is a minute old is fresh; one from yesterday is not", () => {
    expect(stepUpNeeded(sessionAfter({ amr: ["mfa"], auth_time: nowSeconds - 60 }), policy, now)).toBeNull();
    expect(stepUpNeeded(sessionAfter({ amr: ["mfa"], auth_time: nowSeconds - 86400 }), policy, now)).toBe(
      "sso",
    );
  });
});
