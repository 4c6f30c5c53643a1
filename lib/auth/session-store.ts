import "server-only";
import { randomBytes } from "node:crypto";
import { getDb } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import { getSettings } from "@/lib/settings/settings";

/**
 * Server-side staff sessions. The session cookie is an Auth.js JWT, valid on its own until it expires;
 * each one also carries the id (`sid`) of a Session row, and is honoured only while that row exists,
 * the session is younger than the lifetime setting and was used within the idle timeout.
 *
 * Why rows rather than only the user's `sessionVersion`: signing out ends this browser's session and
 * leaves the user's other devices signed in (bumping the version would end them all), and the idle
 * timeout needs the time of the last request, which the JWT cannot carry: `auth()` in a server
 * component cannot set cookies, so a JWT is not re-issued as pages load. Disabling a user or
 * resetting a password deletes all their rows (and still bumps `sessionVersion`).
 */

// The last-seen time is written at most this often per session (not on every request).
const TOUCH_EVERY_MS = 60_000;
const MINUTE_MS = 60_000;

export type SessionEnd = "missing" | "expired" | "idle";
export type SessionCheck = { ok: true; userId: string } | { ok: false; reason: SessionEnd };

type Limits = { lifetimeMs: number; idleMs: number };

async function limits(): Promise<Limits> {
  const settings = await getSettings();
  return {
    lifetimeMs: settings.sessionLifetimeMinutes * MINUTE_MS,
    idleMs: settings.sessionIdleMinutes * MINUTE_MS,
  };
}

/** When a session ends if nobody uses it (the sooner of its lifetime and its idle timeout). */
function endsAt(createdAt: Date, lastSeenAt: Date, { lifetimeMs, idleMs }: Limits): Date {
  return new Date(Math.min(createdAt.getTime() + lifetimeMs, lastSeenAt.getTime() + idleMs));
}

/** How the sign-in proved a second factor, if it did (lib/auth/two-factor). */
export type SecondFactorProof = { secondFactorAt?: Date | null; identityProviderMfa?: boolean };

/** Opens a session for a user who just proved who they are; returns its id for the JWT. */
export async function startSession(
  userId: string,
  now = new Date(),
  proof: SecondFactorProof = {},
): Promise<string> {
  const current = await limits();
  const sessionToken = randomBytes(32).toString("base64url");
  const db = getDb();
  // This user's finished sessions go now; rows are only made by successful sign-ins, so they stay few.
  await db.session.deleteMany({ where: { userId, expires: { lte: now } } });
  await db.session.create({
    data: {
      sessionToken,
      userId,
      createdAt: now,
      lastSeenAt: now,
      expires: endsAt(now, now, current),
      secondFactorAt: proof.secondFactorAt ?? null,
      identityProviderMfa: proof.identityProviderMfa ?? false,
    },
  });
  return sessionToken;
}

/**
 * Checks the session a JWT names, on every request: it must exist, be younger than the lifetime and
 * have been used within the idle timeout (the settings as they are now). A valid session's last-seen
 * time moves on; an ended one is deleted.
 */
export async function resumeSession(sid: unknown, now = new Date()): Promise<SessionCheck> {
  const session = await resumeSessionRow(sid, now);
  return session.ok ? { ok: true, userId: session.userId } : session;
}

/**
 * resumeSession, also naming the row (its `id`, not its token): the app finds the session's
 * second-factor state by it (lib/auth/session.ts).
 */
export async function resumeSessionRow(
  sid: unknown,
  now = new Date(),
): Promise<{ ok: true; userId: string; sessionId: string } | { ok: false; reason: SessionEnd }> {
  if (typeof sid !== "string" || sid === "") return { ok: false, reason: "missing" };
  const db = getDb();
  const session = await db.session.findUnique({
    where: { sessionToken: sid },
    select: { id: true, userId: true, createdAt: true, lastSeenAt: true },
  });
  if (!session) return { ok: false, reason: "missing" };
  const current = await limits();
  const age = now.getTime() - session.createdAt.getTime();
  const idle = now.getTime() - session.lastSeenAt.getTime();
  const ended: SessionEnd | null =
    age >= current.lifetimeMs ? "expired" : idle >= current.idleMs ? "idle" : null;
  if (ended) {
    await db.session.deleteMany({ where: { sessionToken: sid } });
    return { ok: false, reason: ended };
  }
  if (idle >= TOUCH_EVERY_MS) {
    await db.session.updateMany({
      where: { sessionToken: sid },
      data: { lastSeenAt: now, expires: endsAt(session.createdAt, now, current) },
    });
  }
  return { ok: true, userId: session.userId, sessionId: session.id };
}

/** Sign-out: this session ends at once, whoever holds a copy of its cookie. */
export async function endSession(sid: unknown): Promise<void> {
  if (typeof sid !== "string" || sid === "") return;
  await getDb().session.deleteMany({ where: { sessionToken: sid } });
}

/** Every session of the user ends (disabled, password reset). Runs in the caller's transaction. */
export async function endAllSessions(
  tx: Pick<Prisma.TransactionClient, "session">,
  userId: string,
): Promise<void> {
  await tx.session.deleteMany({ where: { userId } });
}
