// TOTP (RFC 6238) with a fixed clock: the code of a moment, the ±1 step window, and each step accepted
// once (the caller stores the last accepted step; acceptedStep refuses it and anything older).
import { describe, expect, test } from "vitest";
import {
  acceptedStep,
  codeAt,
  looksLikeTotp,
  newTotpSecret,
  otpauthUri,
  stepAt,
} from "@/lib/auth/two-factor/totp";

// RFC 6238 appendix B: the ASCII secret "12345678901234567890" (SHA-1), in base32.
const RFC_SECRET = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ";
const at = (seconds: number) => new Date(seconds * 1000);

describe("codes", () => {
  test.each([
    [59, "287082"],
    [1111111109, "081804"],
    [1111111111, "050471"],
    [1234567890, "005924"],
    [2000000000, "279037"],
  ])("RFC 6238 test vector at T=%i is %s (last 6 of the 8 digits)", (seconds, code) => {
    expect(codeAt(RFC_SECRET, at(seconds))).toBe(code);
  });

  test("a new secret is 160 random bits in base32, different each time", () => {
    const a = newTotpSecret();
    expect(a).toMatch(/^[A-Z2-7]{32}$/);
    expect(newTotpSecret()).not.toBe(a);
  });

  test("the otpauth URI names Paydesk and the account, 6 digits, 30 s, SHA-1", () => {
    const uri = otpauthUri(RFC_SECRET, "approver@paydesk.local");
    expect(uri).toMatch(/^otpauth:\/\/totp\/Paydesk:approver%40paydesk\.local\?/);
    const params = new URL(uri).searchParams;
    expect(Object.fromEntries(params)).toEqual({
      issuer: "Paydesk",
      secret: RFC_SECRET,
      algorithm: "SHA1",
      digits: "6",
      period: "30",
    });
  });
});

describe("the window: the step of the code and one step either side", () => {
  const now = at(1_700_000_010); // 10 s into its step
  const step = stepAt(now);
  const codeOf = (stepOffset: number) => codeAt(RFC_SECRET, at((step + stepOffset) * 30 + 5));

  test.each([
    [-1, step - 1],
    [0, step],
    [1, step + 1],
  ])("a code of step %+i is accepted, as that step", (offset, expected) => {
    expect(acceptedStep(RFC_SECRET, codeOf(offset), now, null)).toBe(expected);
  });

  test.each([-3, -2, 2, 3])("a code of step %+i is refused", (offset) => {
    expect(acceptedStep(RFC_SECRET, codeOf(offset), now, null)).toBeNull();
  });

  test("the edges of a step: 29 s later the code still counts, 60 s later no longer", () => {
    const start = at(step * 30);
    const code = codeAt(RFC_SECRET, start);
    expect(acceptedStep(RFC_SECRET, code, at(step * 30 + 59), null)).toBe(step);
    expect(acceptedStep(RFC_SECRET, code, at(step * 30 + 60), null)).toBeNull();
    expect(acceptedStep(RFC_SECRET, code, at(step * 30 - 30), null)).toBe(step);
    expect(acceptedStep(RFC_SECRET, code, at(step * 30 - 31), null)).toBeNull();
  });

  test("spaces between the digits are fine; anything else is not a code", () => {
    const code = codeOf(0);
    expect(acceptedStep(RFC_SECRET, `${code.slice(0, 3)} ${code.slice(3)}`, now, null)).toBe(step);
    for (const bad of ["", "12345", "1234567", "abcdef", `${code}\u0000`, `٠١٢٣٤٥`]) {
      expect(acceptedStep(RFC_SECRET, bad, now, null)).toBeNull();
    }
    expect(looksLikeTotp("123 456")).toBe(true);
    expect(looksLikeTotp("abcde-fghij")).toBe(false);
  });

  test.each([
    ["123456", true],
    ["123 456", true],
    [" 123456 ", true],
    ["\t123 456\n", true],
    ["123  456", false],
    ["x123456", false],
    ["123456x", false],
    ["1234567", false],
    ["0123456", false],
    ["12 3456", false],
  ])("is %j shaped like a code? %s", (input, expected) => {
    expect(looksLikeTotp(input)).toBe(expected);
  });

  test("a code with a character before or after its six digits is refused", () => {
    const code = codeOf(0);
    for (const bad of [`x${code}`, `${code}x`, `0${code}`, `${code}0`]) {
      expect(acceptedStep(RFC_SECRET, bad, now, null)).toBeNull();
    }
  });
});

describe("each code once: a step at or before the last accepted one is refused", () => {
  const now = at(1_800_000_000);
  const step = stepAt(now);
  const code = codeAt(RFC_SECRET, now);

  test("the same code again (a replay) is refused", () => {
    const first = acceptedStep(RFC_SECRET, code, now, null);
    expect(first).toBe(step);
    expect(acceptedStep(RFC_SECRET, code, now, first)).toBeNull();
    expect(acceptedStep(RFC_SECRET, code, at(step * 30 + 45), first)).toBeNull();
  });

  test("an older code inside the window is refused after a newer one was used", () => {
    const previous = codeAt(RFC_SECRET, at((step - 1) * 30));
    expect(acceptedStep(RFC_SECRET, previous, now, step)).toBeNull();
  });

  test("the next step's code is accepted after this one", () => {
    const next = codeAt(RFC_SECRET, at((step + 1) * 30));
    expect(acceptedStep(RFC_SECRET, next, at((step + 1) * 30), step)).toBe(step + 1);
  });
});
