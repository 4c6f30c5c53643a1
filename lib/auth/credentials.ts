import "server-only";
import { getDb } from "@/lib/db";
import { isDatabaseUnavailable } from "@/lib/errors/database";
import { createRateLimit } from "@/lib/http/rate-limit";
import { hashPassword, verifyPassword } from "@/lib/auth/password";
import type { Role } from "@/lib/auth/permissions";
import { sleep, type Wait } from "@/lib/time/sleep";

import { LOCK_AFTER_FAILURES, LOCK_MINUTES } from "@/lib/auth/lock-policy";

export { LOCK_AFTER_FAILURES, LOCK_MINUTES };
export const SLOWDOWN_MS_PER_FAILURE = 300;

export type SignInUser = {
  id: string;
  email: string;
  name: string | null;
  role: Role;
  sessionVersion: number;
  /** Enrolled in two-factor sign-in: the password alone does not sign in (lib/auth/two-factor/sign-in.ts). */
  twoFactorEnrolled: boolean;
};
export type SignInRefusal = "invalid" | "disabled" | "unavailable";
export type SignInResult = { ok: true; user: SignInUser } | { ok: false; reason: SignInRefusal };

/**
 * Refused attempts per normalised email in this process, whether a user has that email or not: they
 * drive the growing delay, so an unknown email slows down exactly as an existing one does. Kept in
 * memory (capped by the limiter's key limit), so made-up emails cost nothing in the database. The
 * account's count and lock are stored on the user and hold across processes (claimAttempt).
 */
export const failedAttempts = createRateLimit({
  limit: LOCK_AFTER_FAILURES,
  windowMs: LOCK_MINUTES * 60_000,
});

// Same algorithm and cost as the stored hashes, so an unknown email costs the same verification.
const dummyHash = hashPassword("no user has this password");

/**
 * Checks an email and password. Until the password is right, every refusal is the same "invalid"
 * after the same work (one argon2 verification, the same growing delay), whether the email is
 * unknown, the password wrong, or the account disabled: only someone who knows the password learns
 * that the account is disabled. A real account's attempt is taken before its password is checked
 * (claimAttempt), so guesses sent together cannot all be checked before the lock lands, and while the
 * account is locked no password is checked at all: a right one is refused as "invalid" too, so the
 * lock gives a guesser nothing. A database that cannot be reached is reported as such, never as a
 * wrong password.
 */
export async function checkCredentials(
  email: string,
  password: string,
  now = new Date(),
  wait: Wait = sleep,
): Promise<SignInResult> {
  const key = email.trim().toLowerCase();
  try {
    const user = await getDb().user.findUnique({ where: { email: key }, omit: { passwordHash: false } });
    const hash = user?.passwordHash && (await claimAttempt(user.id, now)) ? user.passwordHash : null;
    const passwordOk = await verifyPassword(hash ?? (await dummyHash), password);

    if (user && hash && passwordOk) {
      if (user.disabledAt) return { ok: false, reason: "disabled" };
      const twoFactorEnrolled = user.totpEnrolledAt !== null;
      // With a second factor the sign-in is not done yet: this attempt stays counted until the code is
      // right, so a known password cannot reset the count between guesses of the code.
      if (!twoFactorEnrolled) await attemptSucceeded(user.id, now);
      const { id, name, role, sessionVersion } = user;
      return { ok: true, user: { id, email: user.email, name, role, sessionVersion, twoFactorEnrolled } };
    }

    await slowDown(key, now, wait);
    return { ok: false, reason: "invalid" };
  } catch (error) {
    if (isDatabaseUnavailable(error)) return { ok: false, reason: "unavailable" };
    throw error;
  }
}

/**
 * A right password or code: the failure count and any lock are cleared. `signedInAt` for a completed
 * sign-in (a step-up's code leaves the last sign-in as it was).
 */
export async function attemptSucceeded(userId: string, signedInAt?: Date): Promise<void> {
  await getDb().user.update({
    where: { id: userId },
    data: { failedSignIns: 0, lockedUntil: null, lastSignInAt: signedInAt },
  });
}

/**
 * Takes one attempt at an account (a password at sign-in, or a code at sign-in or step-up) before it
 * is checked: false while the account is locked, and then nothing may be checked. The attempt counts
 * as failed until a success clears the count (attemptSucceeded); the attempt that reaches
 * LOCK_AFTER_FAILURES locks the account at once, for LOCK_MINUTES. One statement, so attempts made
 * together each count (PostgreSQL re-reads the row behind a concurrent update), and a process that dies
 * mid-check leaves at most a counted attempt, never a lock without an end.
 */
export async function claimAttempt(userId: string, now: Date): Promise<boolean> {
  const until = new Date(now.getTime() + LOCK_MINUTES * 60_000);
  const claimed = await getDb().$executeRaw`
    UPDATE "User" SET
      "failedSignIns" = CASE WHEN "failedSignIns" + 1 >= ${LOCK_AFTER_FAILURES} THEN 0 ELSE "failedSignIns" + 1 END,
      "lockedUntil" = CASE WHEN "failedSignIns" + 1 >= ${LOCK_AFTER_FAILURES} THEN ${until}::timestamptz ELSE NULL END,
      "updatedAt" = ${now}::timestamptz
    WHERE "id" = ${userId}::uuid AND ("lockedUntil" IS NULL OR "lockedUntil" <= ${now}::timestamptz)`;
  return claimed === 1;
}

/**
 * The growing delay after a refused attempt, per key (a normalised email, or a challenge that does not
 * exist), the same whether a user has that email or not.
 */
export async function slowDown(key: string, now: Date, wait: Wait = sleep): Promise<void> {
  failedAttempts.take(key, now.getTime());
  await wait(failedAttempts.used(key, now.getTime()) * SLOWDOWN_MS_PER_FAILURE);
}

/** The same argon2 work as checking a password, for a refusal that has nothing to verify. */
export async function verifyNothing(input: string): Promise<void> {
  await verifyPassword(await dummyHash, input);
}
