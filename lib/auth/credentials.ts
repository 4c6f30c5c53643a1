import "server-only";
import { getDb } from "@/lib/db";
import { hashPassword, verifyPassword } from "@/lib/auth/password";
import type { Role } from "@/lib/auth/permissions";

export const LOCK_AFTER_FAILURES = 5;
export const LOCK_MINUTES = 15;
const SLOWDOWN_MS_PER_FAILURE = 300;

export type SignInUser = {
  id: string;
  email: string;
  name: string | null;
  role: Role;
  sessionVersion: number;
};
export type SignInResult =
  { ok: true; user: SignInUser } | { ok: false; reason: "invalid" | "locked" | "disabled" };

const dummyHash = hashPassword("no user has this password");

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Checks an email and password; counts failures, slows repeated ones and locks the account for a while. */
export async function checkCredentials(
  email: string,
  password: string,
  now = new Date(),
): Promise<SignInResult> {
  const db = getDb();
  const user = await db.user.findUnique({
    where: { email: email.trim().toLowerCase() },
    omit: { passwordHash: false },
  });
  if (!user?.passwordHash) {
    // Same work as a real check, so response time does not tell which emails exist.
    await verifyPassword(await dummyHash, password);
    return { ok: false, reason: "invalid" };
  }
  if (user.disabledAt) return { ok: false, reason: "disabled" };
  if (user.lockedUntil && user.lockedUntil > now) return { ok: false, reason: "locked" };

  if (await verifyPassword(user.passwordHash, password)) {
    await db.user.update({
      where: { id: user.id },
      data: { failedSignIns: 0, lockedUntil: null, lastSignInAt: now },
    });
    const { id, name, role, sessionVersion } = user;
    return { ok: true, user: { id, email: user.email, name, role, sessionVersion } };
  }

  const failures = user.failedSignIns + 1;
  const locks = failures >= LOCK_AFTER_FAILURES;
  await db.user.update({
    where: { id: user.id },
    data: {
      failedSignIns: locks ? 0 : failures,
      lockedUntil: locks ? new Date(now.getTime() + LOCK_MINUTES * 60_000) : undefined,
    },
  });
  await sleep(Math.min(failures, LOCK_AFTER_FAILURES) * SLOWDOWN_MS_PER_FAILURE);
  return { ok: false, reason: locks ? "locked" : "invalid" };
}
