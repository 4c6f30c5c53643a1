import "server-only";
import { audit, type Actor, type StaffActor } from "@/lib/audit/log";
import { attemptSucceeded, claimAttempt, slowDown } from "@/lib/auth/credentials";
import { endAllSessions } from "@/lib/auth/session-store";
import { getDb } from "@/lib/db";
import { qrDataUrl } from "@/lib/qr";
import { auditTwoFactor } from "./audit";
import {
  generateRecoveryCodes,
  hashRecoveryCodes,
  remainingRecoveryCodes,
  replaceRecoveryCodes,
} from "./recovery-codes";
import { decryptSecret, encryptSecret } from "./secret-crypto";
import { markSecondFactor } from "./step-up";
import { newTotpSecret, otpauthUri } from "./totp";
import { acceptTotp, codeCheckFields, verifySecondFactor, type FactorMethod } from "./verify";

/**
 * A user's own second factor: enrolment (a new secret shown once as a QR code and as text, kept
 * encrypted and confirmed by a first code, then 10 recovery codes shown once), regenerating the
 * recovery codes and disabling it (each with a current code), step-up, and an admin's reset.
 * The secret is never sent again after enrolment and never logged.
 */
export type Refusal = "already_enrolled" | "not_enrolled" | "wrong_code" | "locked" | "no_enrolment";
export type Refused = { ok: false; code: Refusal };

export async function isEnrolled(userId: string): Promise<boolean> {
  const user = await getDb().user.findUnique({ where: { id: userId }, select: { totpEnrolledAt: true } });
  return Boolean(user?.totpEnrolledAt);
}

export type EnrolmentStart = { ok: true; secret: string; uri: string; qr: string };

/** A new secret for the user to add to their app; it replaces any earlier unconfirmed one. */
export async function startEnrolment(actor: StaffActor): Promise<EnrolmentStart | Refused> {
  if (await isEnrolled(actor.id)) return { ok: false, code: "already_enrolled" };
  const secret = newTotpSecret();
  const stored = await getDb().user.updateMany({
    where: { id: actor.id, totpEnrolledAt: null },
    data: { totpSecret: encryptSecret(secret, actor.id), totpLastStep: null },
  });
  if (stored.count !== 1) return { ok: false, code: "already_enrolled" };
  const uri = otpauthUri(secret, actor.email);
  return { ok: true, secret, uri, qr: await qrDataUrl(uri) };
}

export type RecoveryCodesShown = { ok: true; recoveryCodes: string[] };

/** The first code confirms the secret: the user is enrolled, and gets recovery codes (shown once). */
export async function confirmEnrolment(
  actor: StaffActor,
  sessionId: string | null,
  code: string,
  now = new Date(),
): Promise<RecoveryCodesShown | Refused> {
  const user = await getDb().user.findUnique({
    where: { id: actor.id },
    select: { totpSecret: true, totpEnrolledAt: true },
  });
  if (user?.totpEnrolledAt) return { ok: false, code: "already_enrolled" };
  const secret = user?.totpSecret ? decryptSecret(user.totpSecret, actor.id) : null;
  if (!secret) return { ok: false, code: "no_enrolment" };
  if (!(await acceptTotp(actor.id, secret, code, now))) return { ok: false, code: "wrong_code" };
  const recoveryCodes = generateRecoveryCodes();
  const hashes = await hashRecoveryCodes(recoveryCodes);
  const enrolled = await getDb().$transaction(async (tx) => {
    const done = await tx.user.updateMany({
      where: { id: actor.id, totpEnrolledAt: null },
      data: { totpEnrolledAt: now },
    });
    if (done.count !== 1) return false;
    await replaceRecoveryCodes(tx, actor.id, hashes);
    return true;
  });
  if (!enrolled) return { ok: false, code: "already_enrolled" };
  await auditTwoFactor(actor, "twoFactor.enrol");
  await markSecondFactor(sessionId, actor.id, now);
  return { ok: true, recoveryCodes };
}

type CodeUse = "stepUp" | "disable" | "regenerate";

/**
 * Checks a code of a signed-in user (app or recovery code). The attempt is taken on the account before
 * the code is checked (claimAttempt), so a wrong one counts towards the lock like a failed sign-in,
 * codes sent together cannot get past it, and while locked no code is checked at all.
 */
async function checkOwnCode(
  actor: StaffActor,
  code: string,
  use: CodeUse,
  now: Date,
): Promise<{ ok: true; method: FactorMethod } | Refused> {
  const user = await getDb().user.findUnique({
    where: { id: actor.id },
    select: { ...codeCheckFields, email: true },
  });
  if (!user?.totpEnrolledAt) return { ok: false, code: "not_enrolled" };
  if (!(await claimAttempt(user.id, now))) return { ok: false, code: "locked" };
  const check = await verifySecondFactor(user, code, now);
  if (!check.ok) {
    await slowDown(user.email.trim().toLowerCase(), now);
    return { ok: false, code: "wrong_code" };
  }
  await attemptSucceeded(user.id);
  if (check.method === "recovery") {
    await auditTwoFactor(actor, "twoFactor.recoveryCode.use", {
      after: { during: use, remaining: await remainingRecoveryCodes(actor.id) },
    });
  }
  return check;
}

/** Step-up: a right code makes this session's second factor fresh again. Audited either way. */
export async function stepUp(
  actor: StaffActor,
  sessionId: string | null,
  code: string,
  now = new Date(),
): Promise<{ ok: true } | Refused> {
  const check = await checkOwnCode(actor, code, "stepUp", now);
  if (!check.ok) {
    await auditTwoFactor(actor, "twoFactor.stepUp.fail", { after: { reason: check.code } });
    return check;
  }
  await markSecondFactor(sessionId, actor.id, now);
  await auditTwoFactor(actor, "twoFactor.stepUp.pass", { after: { method: check.method } });
  return { ok: true };
}

/** New recovery codes (the old ones stop working), with a current code. */
export async function regenerateRecoveryCodes(
  actor: StaffActor,
  code: string,
  now = new Date(),
): Promise<RecoveryCodesShown | Refused> {
  const check = await checkOwnCode(actor, code, "regenerate", now);
  if (!check.ok) return check;
  const recoveryCodes = generateRecoveryCodes();
  const hashes = await hashRecoveryCodes(recoveryCodes);
  await getDb().$transaction((tx) => replaceRecoveryCodes(tx, actor.id, hashes));
  await auditTwoFactor(actor, "twoFactor.recoveryCodes.regenerate");
  return { ok: true, recoveryCodes };
}

const cleared = { totpSecret: null, totpEnrolledAt: null, totpLastStep: null } as const;

/** Turns the user's own second factor off, with a current code. */
export async function disableTwoFactor(
  actor: StaffActor,
  code: string,
  now = new Date(),
): Promise<{ ok: true } | Refused> {
  const check = await checkOwnCode(actor, code, "disable", now);
  if (!check.ok) return check;
  await getDb().$transaction(async (tx) => {
    await tx.user.update({ where: { id: actor.id }, data: cleared });
    await tx.recoveryCode.deleteMany({ where: { userId: actor.id } });
  });
  await auditTwoFactor(actor, "twoFactor.disable", { after: { method: check.method } });
  return { ok: true };
}

/**
 * An admin resets someone's second factor (a lost phone): secret and recovery codes go, the user's
 * sessions end, and they enrol again at their next sign-in if the policy requires it. Audited.
 */
export async function resetTwoFactor(actor: Actor, userId: string): Promise<void> {
  await getDb().$transaction(async (tx) => {
    await tx.user.update({ where: { id: userId }, data: { ...cleared, sessionVersion: { increment: 1 } } });
    await tx.recoveryCode.deleteMany({ where: { userId } });
    await tx.signInChallenge.deleteMany({ where: { userId } });
    await endAllSessions(tx, userId);
    await audit(tx, actor, { action: "twoFactor.reset", targetType: "user", targetId: userId });
  });
}
