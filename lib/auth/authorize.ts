import "server-only";
import { can, type Permission } from "@/lib/auth/permissions";
import { currentSignIn, mustEnrolFirst, type StaffUser } from "@/lib/auth/session";
import { ALLOWED_BEFORE_ENROLMENT } from "@/lib/auth/two-factor/policy";
import type { StepUpMethod } from "@/lib/auth/two-factor/step-up";
import { translatorFor } from "@/lib/auth/translator";

export type Denied =
  | { ok: false; code: "unauthenticated" | "forbidden" | "two_factor_required"; message: string }
  | StepUpRequired;
/** The action needs a fresh second factor: the page asks for a code (or single sign-on) and retries. */
export type StepUpRequired = { ok: false; code: "step_up_required"; message: string; method: StepUpMethod };
export type Authorized = { ok: true; user: StaffUser };

/**
 * Loads the session and checks one named permission: the check every action and route handler makes.
 * A user the two-factor policy requires to enrol first is refused everything but setting it up.
 */
export async function authorize(permission: Permission): Promise<Authorized | Denied> {
  const signedIn = await currentSignIn();
  if (!signedIn) {
    const t = await translatorFor("common");
    return { ok: false, code: "unauthenticated", message: t("signInToContinue") };
  }
  if (!ALLOWED_BEFORE_ENROLMENT.includes(permission) && (await mustEnrolFirst(signedIn))) {
    const t = await translatorFor("twoFactor");
    return { ok: false, code: "two_factor_required", message: t("errors.enrolFirst") };
  }
  if (can(signedIn.user.role, permission)) return { ok: true, user: signedIn.user };
  const t = await translatorFor("common");
  return { ok: false, code: "forbidden", message: t("roleDoesNotAllow") };
}
