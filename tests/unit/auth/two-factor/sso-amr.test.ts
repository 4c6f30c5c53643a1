// Single sign-on: the identity provider's MFA claim (RFC 8176 `amr` with mfa, otp or hwk) satisfies the
// two-factor policy; anything else leaves Paydesk's own codes to apply.
import { describe, expect, test } from "vitest";
import { providerMfa } from "@/lib/auth/sso";

const now = new Date("2026-11-23T10:00:00Z");
const idToken = (claims: object) =>
  `${Buffer.from('{"alg":"RS256"}').toString("base64url")}.${Buffer.from(JSON.stringify(claims)).toString("base64url")}.sig`;

describe("providerMfa", () => {
  test.each([
    [["pwd", "mfa"], true],
    [["otp"], true],
    [["hwk", "pwd"], true],
    [["MFA"], true],
    [["pwd"], false],
    [["swk"], false],
    [[], false],
    ["mfa", false],
    [[1, null], false],
  ])("amr %j -> MFA %s", (amr, expected) => {
    expect(providerMfa({ amr }, null, now).mfa).toBe(expected);
  });

  test("no amr at all: no MFA (and no auth_time: no moment, see sso-auth-time.test.ts)", () => {
    expect(providerMfa({}, null, now)).toEqual({ mfa: false, at: null });
    expect(providerMfa(undefined, undefined, now)).toEqual({ mfa: false, at: null });
  });

  test("read from the id token when the profile does not carry it", () => {
    expect(providerMfa({}, idToken({ amr: ["mfa"] }), now).mfa).toBe(true);
    expect(providerMfa(null, "not a token", now).mfa).toBe(false);
  });

  test("the moment is the provider's auth_time; an hour ahead of now is no moment", () => {
    const authTime = Math.floor(now.getTime() / 1000) - 120;
    expect(providerMfa({ amr: ["mfa"], auth_time: authTime }, null, now).at).toEqual(
      new Date(authTime * 1000),
    );
    expect(providerMfa({ amr: ["mfa"], auth_time: authTime + 3600 }, null, now).at).toBeNull();
  });
});
