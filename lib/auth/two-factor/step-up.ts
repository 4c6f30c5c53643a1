import "server-only";
import { getDb } from "@/lib/db";
import type { Settings } from "@/lib/settings/settings";
import { hasSecondFactor, type SecondFactorState } from "./policy";

/**
 * Step-up: approving a pay-out, changing settings, creating or changing users and revealing a full
 * recipient number ask for a second factor proved within the last `stepUpFreshMinutes` (5) by this
 * session. The server action checks it (lib/auth/action.ts, stepUpAction); the page's dialog only
 * asks for the code and retries.
 *
 * A user without any second factor is not asked: whether they must have one is the policy's question,
 * and a required user without one never gets this far (they are sent to enrolment first).
 */
export type StepUpMethod = "totp" | "sso";

/** How the user proves it again: a code, or (single sign-on MFA without Paydesk codes) signing in again. */
export function stepUpNeeded(
  state: SecondFactorState,
  policy: Pick<Settings, "stepUpFreshMinutes">,
  now: Date,
): StepUpMethod | null {
  if (!hasSecondFactor(state)) return null;
  if (state.verifiedAt && isFresh(state.verifiedAt, policy, now)) return null;
  return state.enrolled ? "totp" : "sso";
}

export function isFresh(verifiedAt: Date, policy: Pick<Settings, "stepUpFreshMinutes">, now: Date): boolean {
  // Only Paydesk writes verifiedAt (clamped to its clock): a moment ahead is another process's clock.
  return now.getTime() - verifiedAt.getTime() < policy.stepUpFreshMinutes * 60_000;
}

/** This session proved a second factor now (a code at sign-in, enrolment or step-up). */
export async function markSecondFactor(sessionId: string | null, userId: string, at: Date): Promise<void> {
  if (!sessionId) return;
  await getDb().session.updateMany({ where: { id: sessionId, userId }, data: { secondFactorAt: at } });
}
