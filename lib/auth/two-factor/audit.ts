import "server-only";
import { actorFor } from "@/lib/auth/actor";
import { audit, type AuditEntry, type StaffActor } from "@/lib/audit/log";
import type { Role } from "@/lib/auth/permissions";
import { getDb } from "@/lib/db";

/**
 * The two-factor entries of the audit log. `twoFactor.enrol`, `.disable`, `.reset` (by an admin),
 * `.recoveryCodes.regenerate`, `.recoveryCode.use`, `.stepUp.pass`, `.stepUp.fail` and `.signIn.fail`
 * (a wrong code after the right password). Never a secret, a code or a hash.
 */
export type TwoFactorAuditAction =
  | "twoFactor.enrol"
  | "twoFactor.disable"
  | "twoFactor.reset"
  | "twoFactor.recoveryCodes.regenerate"
  | "twoFactor.recoveryCode.use"
  | "twoFactor.stepUp.pass"
  | "twoFactor.stepUp.fail"
  | "twoFactor.signIn.fail";

export async function auditTwoFactor(
  actor: StaffActor,
  action: TwoFactorAuditAction,
  entry: Omit<AuditEntry, "action"> = {},
): Promise<void> {
  await getDb().$transaction((tx) =>
    audit(tx, actor, { targetType: "user", targetId: actor.id, ...entry, action }),
  );
}

/** The actor of a user who is not signed in yet (the second step of a sign-in). */
export function signingInActor(user: { id: string; email: string; role: Role }): Promise<StaffActor> {
  return actorFor({ id: user.id, email: user.email, name: null, role: user.role });
}
