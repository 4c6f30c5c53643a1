// The two-factor sign-in actions with Auth.js's signIn stood in: what they hand to it (the challenge from
// its cookie or a stand-in that never matches, the code, a safe callback, the identity provider asked
// to prompt again) and how each refusal it throws is worded.
import { AuthError, CredentialsSignin } from "next-auth";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { browser } from "../../support/next-request";

const signIn = vi.hoisted(() => vi.fn());
vi.mock("@/lib/auth/config", () => ({ signIn }));
vi.mock("next/headers", async () => (await import("../../support/next-request")).nextHeadersModule());

const { signInCodeAction, ssoStepUpAction } = await import("@/lib/auth/two-factor/sign-in-action");
const { CHALLENGE_COOKIE } = await import("@/lib/auth/two-factor/sign-in");

const form = (fields: Record<string, string>) => {
  const data = new FormData();
  for (const [k, v] of Object.entries(fields)) data.set(k, v);
  return data;
};
const refusedWith = (code: string) => Object.assign(new CredentialsSignin(), { code });
const WRONG =
  "Wrong email, password or code. After 5 failed attempts in a row, signing in to the account pauses for 15 minutes.";

beforeEach(() => {
  signIn.mockReset();
  browser.clear();
});

describe("the code step", () => {
  it("sends the challenge from its cookie, the code and a safe callback", async () => {
    browser.jar.set(CHALLENGE_COOKIE, { value: "challenge-token" });
    expect(await signInCodeAction(null, form({ code: "123456", callbackUrl: "/payouts?x=1" }))).toBeNull();
    expect(signIn).toHaveBeenCalledWith("credentials", {
      challenge: "challenge-token",
      code: "123456",
      redirectTo: "/payouts?x=1",
    });
  });

  it("without a cookie, a stand-in challenge that matches nothing; without a code, an empty one; an outside callback goes home", async () => {
    await signInCodeAction(null, form({ callbackUrl: "https://evil.example/" }));
    expect(signIn).toHaveBeenCalledWith("credentials", { challenge: "expired", code: "", redirectTo: "/" });
  });

  it("a code longer than 64 characters is sent as no code", async () => {
    await signInCodeAction(null, form({ code: "1".repeat(65) }));
    expect(signIn.mock.calls[0]![1]).toMatchObject({ code: "" });
  });

  it.each([
    ["disabled", refusedWith("disabled"), "This account is disabled. Ask an admin."],
    ["invalid", refusedWith("invalid"), WRONG],
    ["invalid", refusedWith("locked"), WRONG],
    ["invalid", refusedWith("something-else"), WRONG],
    ["invalid", new CredentialsSignin(), WRONG],
    [
      "unavailable",
      new AuthError("callback failed", {
        cause: { err: Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }) },
      }),
      "The database is unavailable; try again in a moment.",
    ],
    ["invalid", new AuthError("callback failed"), WRONG],
  ])("Auth.js refuses (%s): worded for the reader", async (code, error, message) => {
    signIn.mockRejectedValueOnce(error);
    expect(await signInCodeAction(null, form({ code: "123456" }))).toEqual({ ok: false, code, message });
  });

  it("anything that is not Auth.js's refusal (its redirect, a fault) goes on up", async () => {
    const redirect = new Error("NEXT_REDIRECT");
    signIn.mockRejectedValueOnce(redirect);
    await expect(signInCodeAction(null, form({ code: "123456" }))).rejects.toBe(redirect);
  });
});

describe("step-up through single sign-on", () => {
  it("asks the identity provider to prompt again, and comes back to a safe path", async () => {
    await ssoStepUpAction(form({ callbackUrl: "/settings" }));
    expect(signIn).toHaveBeenCalledWith(
      "oidc",
      { redirectTo: "/settings" },
      { prompt: "login", max_age: "0" },
    );
  });

  it("an overlong or outside callback goes home", async () => {
    await ssoStepUpAction(form({ callbackUrl: `/${"a".repeat(2048)}` }));
    await ssoStepUpAction(form({ callbackUrl: "//evil.example/" }));
    expect(signIn.mock.calls.map((c) => c[1])).toEqual([{ redirectTo: "/" }, { redirectTo: "/" }]);
  });
});
