import "server-only";
import { createHash, randomBytes } from "node:crypto";
import { cookies, headers } from "next/headers";
import {
  attemptSucceeded,
  claimAttempt,
  slowDown,
  verifyNothing,
  type SignInResult,
} from "@/lib/auth/credentials";
import { getDb } from "@/lib/db";
import { getEnv } from "@/lib/env";
import { servedOverHttps } from "@/lib/http/security-headers";
import { auditTwoFactor, signingInActor } from "./audit";
import { remainingRecoveryCodes } from "./recovery-codes";
import { codeCheckFields, verifySecondFactor } from "./verify";
import { sleep, type Wait } from "@/lib/time/sleep";

/**
 * The second step of signing in. When the first step (the password, or single sign-on without the
 * identity provider's MFA) passes for a user enrolled in two-factor, no session is made: a challenge
 * row is, valid CHALLENGE_MINUTES, and its random token goes to the browser in an httpOnly cookie
 * (only its SHA-256 is stored). The code step sends the token and a code through the Auth.js
 * credentials provider, which opens the session only when the code is right.
 *
 * A wrong code is a failed sign-in like a wrong password: it counts towards the account's lock, it is
 * slowed down the same way, and every refusal is the same "invalid", whether the code was wrong or
 * used, the challenge expired or the account got locked (a right code is not checked then); only a
 * right code learns that the account was disabled meanwhile.
 * After MAX_ATTEMPTS wrong codes the challenge is gone and sign-in starts again from the password.
 */
export const CHALLENGE_COOKIE = "paydesk-sign-in";
export const CHALLENGE_MINUTES = 5;
export const MAX_ATTEMPTS = 5;

const hashOf = (token: string) => createHash("sha256").update(token).digest("hex");

/** Opens a challenge for the user; returns the token for the cookie. Older challenges of the user go. */
export async function openChallenge(userId: string, now = new Date()): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  const db = getDb();
  await db.signInChallenge.deleteMany({ where: { OR: [{ userId }, { expiresAt: { lte: now } }] } });
  await db.signInChallenge.create({
    data: {
      tokenHash: hashOf(token),
      userId,
      createdAt: now,
      expiresAt: new Date(now.getTime() + CHALLENGE_MINUTES * 60_000),
    },
  });
  return token;
}

async function secureCookies(): Promise<boolean> {
  const h = await headers();
  return servedOverHttps({
    publicBaseUrl: getEnv().PUBLIC_BASE_URL,
    forwardedProto: h.get("x-forwarded-proto"),
  });
}

export async function setChallengeCookie(token: string): Promise<void> {
  (await cookies()).set(CHALLENGE_COOKIE, token, {
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    secure: await secureCookies(),
    maxAge: CHALLENGE_MINUTES * 60,
  });
}

export async function readChallengeCookie(): Promise<string | null> {
  const value = (await cookies()).get(CHALLENGE_COOKIE)?.value;
  return value && value.length <= 200 ? value : null;
}

export async function clearChallengeCookie(): Promise<void> {
  (await cookies()).delete(CHALLENGE_COOKIE);
}

/** Counts one attempt at the challenge if it has any left and is still open: the attempt's number, or null. */
async function takeChallengeAttempt(challengeId: string, now: Date): Promise<number | null> {
  const rows = await getDb().$queryRaw<{ attempts: number }[]>`
    UPDATE "SignInChallenge" SET "attempts" = "attempts" + 1
    WHERE "id" = ${challengeId}::uuid AND "attempts" < ${MAX_ATTEMPTS} AND "expiresAt" > ${now}::timestamptz
    RETURNING "attempts"`;
  return rows[0]?.attempts ?? null;
}

/** The second step: the challenge's token and a code (or a recovery code). */
export async function completeChallenge(
  token: string,
  code: string,
  now = new Date(),
  wait: Wait = sleep,
): Promise<SignInResult> {
  const db = getDb();
  const tokenHash = hashOf(token);
  const challenge = await db.signInChallenge.findUnique({
    where: { tokenHash },
    select: {
      id: true,
      expiresAt: true,
      user: {
        select: {
          ...codeCheckFields,
          email: true,
          name: true,
          role: true,
          sessionVersion: true,
          disabledAt: true,
        },
      },
    },
  });
  if (!challenge || challenge.expiresAt <= now) {
    await verifyNothing(code);
    await slowDown(`challenge:${tokenHash}`, now, wait);
    return { ok: false, reason: "invalid" };
  }
  const { user } = challenge;
  const key = user.email.trim().toLowerCase();
  // One of the challenge's attempts and one of the account's are taken before the code is checked, so
  // codes sent together cannot get past MAX_ATTEMPTS or the account's lock; while locked, none is checked.
  const attempt = await takeChallengeAttempt(challenge.id, now);
  if (attempt === null || !(await claimAttempt(user.id, now))) {
    await verifyNothing(code);
    await slowDown(key, now, wait);
    return { ok: false, reason: "invalid" };
  }
  const actor = await signingInActor(user);
  const check = await verifySecondFactor(user, code, now);
  if (!check.ok) {
    if (attempt >= MAX_ATTEMPTS) await db.signInChallenge.deleteMany({ where: { id: challenge.id } });
    await auditTwoFactor(actor, "twoFactor.signIn.fail", { after: { attempt } });
    await slowDown(key, now, wait);
    return { ok: false, reason: "invalid" };
  }

  // Used once: a second request with the same token finds nothing.
  const taken = await db.signInChallenge.deleteMany({ where: { id: challenge.id } });
  if (taken.count !== 1) return { ok: false, reason: "invalid" };
  if (check.method === "recovery") {
    await auditTwoFactor(actor, "twoFactor.recoveryCode.use", {
      after: { during: "signIn", remaining: await remainingRecoveryCodes(user.id) },
    });
  }
  if (user.disabledAt) return { ok: false, reason: "disabled" };
  await attemptSucceeded(user.id, now);
  const { id, email, name, role, sessionVersion } = user;
  return { ok: true, user: { id, email, name, role, sessionVersion, twoFactorEnrolled: true } };
}
