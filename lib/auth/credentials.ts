import "server-only";
import { getDb } from "@/lib/db";
import { isDatabaseUnavailable } from "@/lib/errors/database";
import { createRateLimit } from "@/lib/http/rate-limit";
import { hashPassword, verifyPassword } from "@/lib/auth/password";
import type { Role } from "@/lib/auth/permissions";
import { sleep, type Wait } from "@/lib/time/sleep";

export const LOCK_AFTER_FAILURES = 5;
export const LOCK_MINUTES = 15;
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
export type SignInRefusal = "invalid" | "locked" | "disabled" | "unavailable";
export type SignInResult = { ok: true; user: SignInUser } | { ok: false; reason: SignInRefusal };

/**
 * Failed attempts per normalised email in this process, whether a user has that email or not: they
 * drive the growing delay, so an unknown email slows down exactly as an existing one does. Kept in
 * memory (capped by the limiter's key limit), so made-up emails cost nothing in the database. The
 * account lock itself is stored on the user and holds across processes.
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
 * unknown, the password wrong, the account locked or disabled: only someone who knows the password
 * learns that the account is locked or disabled. Five failures lock a real account for a while.
 * A database that cannot be reached is reported as such, never as a wrong password.
 */
export async function checkCredentials(
  email: string,
  password: string,
  now = new Date(),
  wait: Wait = sleep,
): Promise<SignInResult> {
  const key = email.trim().toLowerCase();
  try {
    const db = getDb();
    const user = await db.user.findUnique({ where: { email: key }, omit: { passwordHash: false } });
    const passwordOk = await verifyPassword(user?.passwordHash ?? (await dummyHash), password);
    const locked = Boolean(user?.lockedUntil && user.lockedUntil > now);

    if (user?.passwordHash && passwordOk) {
      if (user.disabledAt) return { ok: false, reason: "disabled" };
      if (locked) return { ok: false, reason: "locked" };
      const twoFactorEnrolled = user.totpEnrolledAt !== null;
      // With a second factor the sign-in is not done yet: failures keep counting until the code is
      // right, so a known password cannot reset the count between guesses of the code.
      if (!twoFactorEnrolled) await signedIn(user.id, now);
      const { id, name, role, sessionVersion } = user;
      return { ok: true, user: { id, email: user.email, name, role, sessionVersion, twoFactorEnrolled } };
    }

    await countFailure(key, user?.passwordHash ? user : null, now, wait);
    return { ok: false, reason: "invalid" };
  } catch (error) {
    if (isDatabaseUnavailable(error)) return { ok: false, reason: "unavailable" };
    throw error;
  }
}

/** A completed sign-in: the failure count and any lock are cleared. */
export async function signedIn(userId: string, now: Date): Promise<void> {
  await getDb().user.update({
    where: { id: userId },
    data: { failedSignIns: 0, lockedUntil: null, lastSignInAt: now },
  });
}

type LockableUser = { id: string; failedSignIns: number; disabledAt: Date | null; lockedUntil: Date | null };

/**
 * One failed attempt (a wrong password, or a wrong second-factor code at sign-in or step-up): the
 * growing delay for this email, and for an active, unlocked account a step towards the lock.
 */
export async function countFailure(
  key: string,
  user: LockableUser | null,
  now: Date,
  wait: Wait = sleep,
): Promise<void> {
  failedAttempts.take(key, now.getTime());
  const locked = Boolean(user?.lockedUntil && user.lockedUntil > now);
  if (user && !user.disabledAt && !locked) {
    const failures = user.failedSignIns + 1;
    const locks = failures >= LOCK_AFTER_FAILURES;
    await getDb().user.update({
      where: { id: user.id },
      data: {
        failedSignIns: locks ? 0 : failures,
        lockedUntil: locks ? new Date(now.getTime() + LOCK_MINUTES * 60_000) : undefined,
      },
    });
  }
  await wait(failedAttempts.used(key, now.getTime()) * SLOWDOWN_MS_PER_FAILURE);
}

/** The same argon2 work as checking a password, for a refusal that has nothing to verify. */
export async function verifyNothing(input: string): Promise<void> {
  await verifyPassword(await dummyHash, input);
}
