import "server-only";
import { getDb } from "@/lib/db";
import { getSettings } from "@/lib/settings/settings";
import type { SignedIn } from "@/lib/auth/session";
import { twoFactorRequired } from "./policy";
import { isFresh } from "./step-up";

/** What the account page shows about the user's second factor (never the secret). */
export type TwoFactorOverview = {
  enrolledAt: Date | null;
  remainingRecoveryCodes: number;
  required: boolean;
  identityProviderMfa: boolean;
  verifiedAt: Date | null;
  stepUpFresh: boolean;
  stepUpFreshMinutes: number;
};

export async function twoFactorOverview(signedIn: SignedIn, now = new Date()): Promise<TwoFactorOverview> {
  const [user, remaining, settings] = await Promise.all([
    getDb().user.findUnique({ where: { id: signedIn.user.id }, select: { totpEnrolledAt: true } }),
    getDb().recoveryCode.count({ where: { userId: signedIn.user.id, usedAt: null } }),
    getSettings(),
  ]);
  const { verifiedAt, identityProviderMfa } = signedIn.secondFactor;
  return {
    enrolledAt: user?.totpEnrolledAt ?? null,
    remainingRecoveryCodes: remaining,
    required: twoFactorRequired(signedIn.user.role, settings),
    identityProviderMfa,
    verifiedAt,
    stepUpFresh: verifiedAt !== null && isFresh(verifiedAt, settings, now),
    stepUpFreshMinutes: settings.stepUpFreshMinutes,
  };
}
