"use server";
import { z } from "zod";
import type { StaffActor } from "@/lib/audit/log";
import { authorizedAction, stepUpAction, type ActionContext } from "@/lib/auth/action";
import { currentSignIn } from "@/lib/auth/session";
import { translatorFor } from "@/lib/auth/translator";
import { findUserById } from "@/lib/users/service";
import {
  confirmEnrolment,
  disableTwoFactor,
  regenerateRecoveryCodes,
  resetTwoFactor,
  startEnrolment,
  stepUp,
  type Refusal,
  type Refused,
} from "@/lib/auth/two-factor/enrolment";

const noInput = z.object({}).strict().optional();
const codeInput = z
  .object({
    code: z.string().trim().min(1, "twoFactor.errors.codeRequired").max(64, "twoFactor.errors.codeTooLong"),
  })
  .strict();
const userInput = z
  .object({ userId: z.uuid({ error: "twoFactor.errors.notAUser" }).transform((s) => s.toLowerCase()) })
  .strict();

type Failure = { ok: false; code: Refusal | "not_found" | "not_allowed"; message: string };

async function refused(code: Failure["code"]): Promise<Failure> {
  const t = await translatorFor("twoFactor");
  return { ok: false, code, message: t(`errors.${code}`) };
}

/** The handler of an action done with the user's current code: the change's answer, or its refusal in words. */
function withCurrentCode<T extends { ok: true }>(
  change: (actor: StaffActor, code: string) => Promise<T | Refused>,
) {
  return async (input: { code: string }, { actor }: ActionContext) => {
    const done = await change(actor, input.code);
    return done.ok ? done : refused(done.code);
  };
}

const sessionId = async () => (await currentSignIn())?.secondFactor.sessionId ?? null;

/**
 * A new secret to add to the authenticator app: its QR code and its text (account.twoFactor). Like
 * confirming it, it is a step-up action: a session whose second factor (the identity provider's MFA)
 * has gone stale must prove it again before it may put a factor of its own on the account, which would
 * make it fresh. A user without any second factor is asked nothing (lib/auth/two-factor/step-up.ts).
 */
export const startEnrolmentAction = stepUpAction("account.twoFactor", noInput, async (_input, { actor }) => {
  const started = await startEnrolment(actor);
  if (!started.ok) return refused(started.code);
  return { ok: true as const, secret: started.secret, qr: started.qr };
});

/** The first code from the app: enrolled; the recovery codes come back once (account.twoFactor). */
export const confirmEnrolmentAction = stepUpAction(
  "account.twoFactor",
  codeInput,
  withCurrentCode(async (actor, code) => confirmEnrolment(actor, await sessionId(), code)),
);

/** A code from the app or a recovery code makes this session's step-up fresh (account.twoFactor). */
export const verifyStepUpAction = authorizedAction(
  "account.twoFactor",
  codeInput,
  withCurrentCode(async (actor, code) => stepUp(actor, await sessionId(), code)),
);

/** New recovery codes, with a current code; the old ones stop working (account.twoFactor). */
export const regenerateRecoveryCodesAction = authorizedAction(
  "account.twoFactor",
  codeInput,
  withCurrentCode(regenerateRecoveryCodes),
);

/** Turns one's own second factor off, with a current code (account.twoFactor). */
export const disableTwoFactorAction = authorizedAction(
  "account.twoFactor",
  codeInput,
  withCurrentCode(disableTwoFactor),
);

/**
 * An admin resets another user's second factor (their sessions end; audited). Changing a user, so it
 * needs a fresh step-up (users.manage).
 */
export const resetUserTwoFactorAction = stepUpAction(
  "users.manage",
  userInput,
  async (input, { user, actor }) => {
    if (input.userId === user.id) return refused("not_allowed");
    const target = await findUserById(input.userId);
    if (!target) return refused("not_found");
    await resetTwoFactor(actor, target.id);
    return { ok: true as const };
  },
);
