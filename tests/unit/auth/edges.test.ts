// Edges of the pure auth helpers the mutation run found unguarded: the callback-path length limit and
// credentials in a same-origin URL, the sign-in codes, `rolesWith`, and a stored hash that is not one.
import { describe, expect, it } from "vitest";
import { hashPassword, verifyPassword } from "@/lib/auth/password";
import { rolesWith } from "@/lib/auth/permissions";
import { safeCallbackPath } from "@/lib/auth/safe-callback";
import { LOCK_AFTER_FAILURES, LOCK_MINUTES } from "@/lib/auth/lock-policy";
import {
  isSignInCode,
  signInCodes,
  signInMessageKey,
  signInMessageValues,
} from "@/lib/auth/sign-in-messages";
import { translatorIn } from "@/lib/i18n/translate";

const ORIGIN = "http://paydesk.test";

describe("safeCallbackPath edges", () => {
  it("keeps a path of exactly 2048 characters and refuses one of 2049", () => {
    const longest = `/${"a".repeat(2047)}`;
    expect(safeCallbackPath(longest, ORIGIN)).toBe(longest);
    expect(safeCallbackPath(`${longest}a`, ORIGIN)).toBe("/");
  });

  it("refuses a same-origin URL that carries a user name or a password", () => {
    expect(safeCallbackPath("http://mallory@paydesk.test/payouts", ORIGIN)).toBe("/");
    expect(safeCallbackPath("http://:secret@paydesk.test/payouts", ORIGIN)).toBe("/");
    expect(safeCallbackPath("http://paydesk.test/payouts", ORIGIN)).toBe("/payouts");
  });

  it("keeps doubled or encoded slashes that are not at the start of the path", () => {
    expect(safeCallbackPath("/statements//2030", ORIGIN)).toBe("/statements//2030");
    expect(safeCallbackPath("/webhooks/%2F%2Fx", ORIGIN)).toBe("/webhooks/%2F%2Fx");
    expect(safeCallbackPath("/trace/%5Cx", ORIGIN)).toBe("/trace/%5Cx");
  });

  it("answers the root when the app's own origin cannot be parsed", () => {
    expect(safeCallbackPath("/payouts", "not a url")).toBe("/");
    expect(safeCallbackPath("/payouts", "")).toBe("/");
  });
});

describe("sign-in codes", () => {
  it("knows exactly its four codes (a locked account is refused as invalid)", () => {
    expect(signInCodes).toEqual(["invalid", "disabled", "unavailable", "failed"]);
    for (const code of signInCodes) expect(isSignInCode(code)).toBe(true);
  });

  it.each([undefined, null, 42, "", "Invalid", "locked", "fields", "toString", "constructor", ["invalid"]])(
    "refuses %j",
    (value) => {
      expect(isSignInCode(value)).toBe(false);
    },
  );

  it("has a sentence for every code, each a different one", () => {
    const t = translatorIn("auth", "en");
    const signInMessages = Object.fromEntries(
      signInCodes.map((code) => [code, t(signInMessageKey(code), signInMessageValues)]),
    );
    const texts = signInCodes.map((code) => signInMessages[code]);
    for (const text of texts) expect(text).toMatch(/^[A-Z].{10,}\.$/);
    expect(new Set(texts).size).toBe(signInCodes.length);
    expect(signInMessages.failed).toBe("Sign-in did not work; try again in a moment.");
    // the lock is explained where a locked account's refusal is read, with the policy's own numbers
    expect(signInMessages.invalid).toBe(
      `Wrong email, password or code. After ${LOCK_AFTER_FAILURES} failed attempts in a row, signing in to the account pauses for ${LOCK_MINUTES} minutes.`,
    );
  });
});

describe("rolesWith", () => {
  it("lists the roles holding a permission, written out", () => {
    expect(rolesWith("users.manage")).toEqual(["admin"]);
    expect(rolesWith("payouts.approve")).toEqual(["admin", "approver"]);
    expect(rolesWith("operations.read")).toEqual(["admin", "finance", "approver", "support"]);
  });

  it("hands out a copy: changing it changes no permission", () => {
    const list = rolesWith("users.manage");
    list.push("support");
    expect(rolesWith("users.manage")).toEqual(["admin"]);
  });
});

describe("verifyPassword", () => {
  it("answers false, never throws, for a stored value that is not an argon2 hash", async () => {
    await expect(verifyPassword("not-a-hash", "anything")).resolves.toBe(false);
    await expect(verifyPassword("", "")).resolves.toBe(false);
  });

  it("answers true only for the password the hash was made from", async () => {
    const stored = await hashPassword("correct horse battery");
    await expect(verifyPassword(stored, "correct horse battery")).resolves.toBe(true);
    await expect(verifyPassword(stored, "correct horse batterY")).resolves.toBe(false);
  });
});
