// What the sign-in page says for each outcome (the form's result and the `?error=` / `?code=` that
// Auth.js or single sign-on put in the URL). Typed codes: the page never matches message text. The
// words are in the catalogs (messages/<locale>/auth.json, signIn.refusals): one text per code, so an
// unknown email and a wrong password read the same in every language. A locked account is refused as
// "invalid" too (lib/auth/credentials.ts), so those words say how the lock works: signInMessageValues.
import { LOCK_AFTER_FAILURES, LOCK_MINUTES } from "@/lib/auth/lock-policy";

export const signInCodes = ["invalid", "disabled", "unavailable", "failed"] as const;
export type SignInCode = (typeof signInCodes)[number];

/** The catalog key (namespace `auth`) of a refusal's words. */
export const signInMessageKey = (code: SignInCode) => `signIn.refusals.${code}` as const;

/** The values the refusals' words use. */
export const signInMessageValues = { attempts: LOCK_AFTER_FAILURES, minutes: LOCK_MINUTES };

export function isSignInCode(value: unknown): value is SignInCode {
  return typeof value === "string" && (signInCodes as readonly string[]).includes(value);
}

/**
 * The sign-in page's `?notice=` after a user changed their own password: every session of theirs ended,
 * the one they changed it from too (lib/actions/account.ts), and the page says so.
 */
export const PASSWORD_CHANGED_NOTICE = "password-changed";
export const SIGN_IN_AFTER_PASSWORD_CHANGE = `/login?notice=${PASSWORD_CHANGED_NOTICE}`;
