// A wrong password and a wrong second-factor code read the same, in both languages: the words do not
// tell an attacker which of the two was right (the timing is the same too: tests/integration/auth).
import { describe, expect, test } from "vitest";
import { signInMessageValues } from "@/lib/auth/sign-in-messages";
import { translatorIn } from "@/lib/i18n/translate";

describe("sign-in refusals", () => {
  test.each(["en", "ru"] as const)("%s: the password step and the code step say the same", (locale) => {
    const password = translatorIn("auth", locale)("signIn.refusals.invalid", signInMessageValues);
    const code = translatorIn("twoFactor", locale)("signIn.refusals.invalid", signInMessageValues);
    expect(code).toBe(password);
    expect(password.length).toBeGreaterThan(10);
    expect(password).toContain(" 5 ");
    expect(password).toContain(" 15 ");
  });
});
