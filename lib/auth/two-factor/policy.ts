import type { Permission, Role } from "@/lib/auth/permissions";
import type { Settings } from "@/lib/settings/settings";

/**
 * The two-factor policy, decided here for the console layout, pages, server actions and route
 * handlers alike:
 * - a role in the `twoFactorRequiredRoles` setting must have a second factor: Paydesk's own codes
 *   (enrolled), or a session whose single sign-on reported the identity provider's MFA;
 * - a user who must and has none can sign in, and then only set it up (ALLOWED_BEFORE_ENROLMENT),
 *   sign out or choose a language: everything else refuses or sends them to /two-factor/setup;
 * - step-up (step-up.ts) asks a user who has a second factor for a fresh one before the actions that
 *   move money or change who may do what.
 */

/** What the request's session knows about its second factor. */
export type SecondFactorState = {
  /** The session row's id (null for a session without one, e.g. a test's stand-in). */
  sessionId: string | null;
  /** Enrolled in Paydesk's own codes (TOTP). */
  enrolled: boolean;
  /** Signed in through single sign-on whose identity provider reported MFA. */
  identityProviderMfa: boolean;
  /** When this session last proved a second factor. */
  verifiedAt: Date | null;
};

export const noSecondFactor: SecondFactorState = {
  sessionId: null,
  enrolled: false,
  identityProviderMfa: false,
  verifiedAt: null,
};

/** Where a user who must enrol is sent, and the only page they may open. */
export const ENROLMENT_PATH = "/two-factor/setup";

/** What a user who must enrol and has not may still do: set it up, and their own language and zone. */
export const ALLOWED_BEFORE_ENROLMENT: readonly Permission[] = ["account.twoFactor", "profile.update"];

type Policy = Pick<Settings, "twoFactorRequiredRoles">;

export function twoFactorRequired(role: Role, policy: Policy): boolean {
  return policy.twoFactorRequiredRoles.includes(role);
}

export function hasSecondFactor(state: SecondFactorState): boolean {
  return state.enrolled || state.identityProviderMfa;
}

/** True when the user must set up two-factor before anything else. */
export function mustEnrol(role: Role, state: SecondFactorState, policy: Policy): boolean {
  return twoFactorRequired(role, policy) && !hasSecondFactor(state);
}
