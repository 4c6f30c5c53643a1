// Two-factor for integration tests: enrol a user with a known secret, open a session whose second
// factor is fresh, stale or absent (what `auth()` would hand the app for it), set the policy. Tests
// that change the policy run on a database of their own (isolateDatabase): settings are global.
import { randomUUID } from "node:crypto";
import { cliActor } from "@/lib/audit/log";
import type { Role } from "@/lib/auth/permissions";
import { startSession } from "@/lib/auth/session-store";
import { encryptSecret } from "@/lib/auth/two-factor/secret-crypto";
import { codeAt, newTotpSecret } from "@/lib/auth/two-factor/totp";
import { getDb } from "@/lib/db";
import { forgetCachedSettings, saveSetting } from "@/lib/settings/settings";

/** Enrols the user in TOTP with a new secret (as enrolment would store it); returns the secret. */
export async function enrolUser(userId: string, at = new Date()): Promise<string> {
  const secret = newTotpSecret();
  await getDb().user.update({
    where: { id: userId },
    data: { totpSecret: encryptSecret(secret, userId), totpEnrolledAt: at, totpLastStep: null },
  });
  return secret;
}

/** A code the user's app would show at that moment. */
export const codeFor = (secret: string, at = new Date()) => codeAt(secret, at);

export type SecondFactorAge = "fresh" | "stale" | "none";

/** The session object the mocked `auth()` returns: the user, their session version and the session row. */
export type FakeSession = { userId: string; sessionVersion: number; sessionId: string };

/**
 * Opens a real session row for the user with its second factor proved a minute ago (fresh), 6 minutes
 * ago (stale under the default 5-minute window) or never (none), and returns what `auth()` gives for it.
 */
export async function sessionFor(
  userId: string,
  age: SecondFactorAge,
  now = new Date(),
): Promise<FakeSession> {
  const minutesAgo = { fresh: 1, stale: 6, none: null }[age];
  const sid = await startSession(userId, now, {
    secondFactorAt: minutesAgo === null ? null : new Date(now.getTime() - minutesAgo * 60_000),
  });
  const [row, user] = await Promise.all([
    getDb().session.findUniqueOrThrow({ where: { sessionToken: sid }, select: { id: true } }),
    getDb().user.findUniqueOrThrow({ where: { id: userId }, select: { sessionVersion: true } }),
  ]);
  return { userId, sessionVersion: user.sessionVersion, sessionId: row.id };
}

/** Sets the roles that must use two-factor (only on a database of the test's own). */
export async function requireTwoFactorFor(roles: Role[]): Promise<void> {
  const saved = await saveSetting(cliActor, "twoFactorRequiredRoles", roles);
  if (!saved.ok) throw new Error(saved.message);
  forgetCachedSettings();
}

/** An email no other test uses. */
export const uniqueEmail = (prefix: string) => `${prefix}-${randomUUID()}@example.test`;
