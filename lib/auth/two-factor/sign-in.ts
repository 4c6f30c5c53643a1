import "server-only";
import { createHash, randomBytes } from "node:crypto";
import { cookies, headers } from "next/headers";
import { countFailure, signedIn, verifyNothing, type SignInResult } from "@/lib/auth/credentials";
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
 * slowed down the same way, and until the code is right every refusal is the same "invalid", whether
 * the code was wrong or used, the challenge expired, or the account got locked or disabled meanwhile.
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
      attempts: true,
      expiresAt: true,
      user: {
        select: {
          ...codeCheckFields,
          email: true,
          name: true,
          role: true,
          sessionVersion: true,
          disabledAt: true,
          lockedUntil: true,
          failedSignIns: true,
        },
      },
    },
  });
  if (!challenge || challenge.expiresAt <= now) {
    await verifyNothing(code);
    await countFailure(`challenge:${tokenHash}`, null, now, wait);
    return { ok: false, reason: "invalid" };
  }
  const { user } = challenge;
  const key = user.email.trim().toLowerCase();
  const actor = await signingInActor(user);
  const check = await verifySecondFactor(user, code, now);
  if (!check.ok) {
    const spent = challenge.attempts + 1 >= MAX_ATTEMPTS;
    await (spent
      ? db.signInChallenge.deleteMany({ where: { id: challenge.id } })
      : db.signInChallenge.updateMany({ where: { id: challenge.id }, data: { attempts: { increment: 1 } } }));
    await auditTwoFactor(actor, "twoFactor.signIn.fail", { after: { attempt: challenge.attempts + 1 } });
    await countFailure(key, user, now, wait);
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
  if (user.lockedUntil && user.lockedUntil > now) return { ok: false, reason: "locked" };
  await signedIn(user.id, now);
  const { id, email, name, role, sessionVersion } = user;
  return { ok: true, user: { id, email, name, role, sessionVersion, twoFactorEnrolled: true } };
}
