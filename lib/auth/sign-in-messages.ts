// What the sign-in page says for each outcome (the form's result and the `?error=` / `?code=` that
// Auth.js or single sign-on put in the URL). Typed codes: the page never matches message text.
export const signInCodes = ["invalid", "locked", "disabled", "unavailable", "failed"] as const;
export type SignInCode = (typeof signInCodes)[number];

export const signInMessages: Record<SignInCode, string> = {
  invalid: "Wrong email or password.",
  locked: "Too many failed attempts: this account is locked for a while. Try again later or ask an admin.",
  disabled: "This account is disabled. Ask an admin.",
  unavailable: "The database is unavailable; try again in a moment.",
  failed: "Sign-in did not work; try again in a moment.",
};

export function isSignInCode(value: unknown): value is SignInCode {
  return typeof value === "string" && (signInCodes as readonly string[]).includes(value);
}
