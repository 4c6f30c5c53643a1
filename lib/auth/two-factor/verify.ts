import "server-only";
import { verifyNothing } from "@/lib/auth/credentials";
import { getDb } from "@/lib/db";
import { decryptSecret } from "./secret-crypto";
import { spendRecoveryCode } from "./recovery-codes";
import { acceptedStep, looksLikeTotp } from "./totp";

export type FactorMethod = "totp" | "recovery";
export type CodeCheck = { ok: true; method: FactorMethod } | { ok: false };

/** What checking a code needs of the user (the encrypted secret is read here, never returned). */
export const codeCheckFields = {
  id: true,
  totpSecret: true,
  totpEnrolledAt: true,
  totpLastStep: true,
} as const;
export type CodeCheckUser = {
  id: string;
  totpSecret: string | null;
  totpEnrolledAt: Date | null;
  totpLastStep: number | null;
};

/**
 * Checks a code from the authenticator app (each step accepted once: the step is stored only if it
 * is after the last one stored, so a replay, even a concurrent one, is refused) or a recovery code
 * (spent by this). Only an enrolled user has codes to check.
 */
export async function verifySecondFactor(user: CodeCheckUser, input: string, now: Date): Promise<CodeCheck> {
  const secret = user.totpEnrolledAt && user.totpSecret ? decryptSecret(user.totpSecret, user.id) : null;
  if (looksLikeTotp(input)) {
    // The same argon2 work as a wrong password, so a wrong code takes as long as a wrong password.
    await verifyNothing(input);
    if (!secret) return { ok: false };
    return (await acceptTotp(user.id, secret, input, now)) ? { ok: true, method: "totp" } : { ok: false };
  }
  if (!user.totpEnrolledAt) {
    await verifyNothing(input);
    return { ok: false };
  }
  return (await spendRecoveryCode(user.id, input, now)) ? { ok: true, method: "recovery" } : { ok: false };
}

/** Checks a code against a secret and stores its step, atomically; false for a wrong or used code. */
export async function acceptTotp(userId: string, secret: string, input: string, now: Date): Promise<boolean> {
  const current = await getDb().user.findUnique({ where: { id: userId }, select: { totpLastStep: true } });
  const step = acceptedStep(secret, input, now, current?.totpLastStep ?? null);
  if (step === null) return false;
  const stored = await getDb().user.updateMany({
    where: { id: userId, OR: [{ totpLastStep: null }, { totpLastStep: { lt: step } }] },
    data: { totpLastStep: step },
  });
  return stored.count === 1;
}
