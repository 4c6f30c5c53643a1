// A wrong password and a wrong second-factor code read the same, in both languages: the words do not
// tell an attacker which of the two was right (the timing is the same too: tests/integration/auth).
import { describe, expect, test } from "vitest";
import { translatorIn } from "@/lib/i18n/translate";

describe("sign-in refusals", () => {
  test.each(["en", "ru"] as const)("%s: the password step and the code step say the same", (locale) => {
    const password = translatorIn("auth", locale)("signIn.refusals.invalid");
    const code = translatorIn("twoFactor", locale)("signIn.refusals.invalid");
    expect(code).toBe(password);
    expect(password.length).toBeGreaterThan(10);
  });
});
