import "server-only";
import { getDb } from "@/lib/db";
import { getEnv } from "@/lib/env";

/** The identity provider's settings (AUTH_OIDC_*), or null when single sign-on is not configured. */
export function ssoSettings(): { issuer: string; clientId: string; clientSecret: string } | null {
  const env = getEnv();
  if (!env.AUTH_OIDC_ISSUER || !env.AUTH_OIDC_CLIENT_ID || !env.AUTH_OIDC_CLIENT_SECRET) return null;
  return {
    issuer: env.AUTH_OIDC_ISSUER,
    clientId: env.AUTH_OIDC_CLIENT_ID,
    clientSecret: env.AUTH_OIDC_CLIENT_SECRET,
  };
}

/**
 * Whether single sign-on is configured: the login page offers it, and only then may a user have no
 * password (created single-sign-on only, or their password removed: lib/users/service.ts).
 */
export function ssoConfigured(): boolean {
  return ssoSettings() !== null;
}

export type SsoUser = { id: string; sessionVersion: number };

/**
 * Single sign-on admits only people who already have a Paydesk user (matched by email, case-insensitive)
 * that is not disabled; the identity provider proves who they are, Paydesk decides their role.
 *
 * Paydesk's emails are printable ASCII, so only such an email is matched: lower-casing other text could
 * turn it into someone else's (the Kelvin sign K becomes "k"). An email the provider says it has not
 * verified (`email_verified: false`, or "false" as some providers send it) matches no one; one that does not say (some providers never send
 * the claim) is taken as the provider's word.
 */
export async function ssoUserFor(
  email: string | null | undefined,
  now = new Date(),
  emailVerified?: unknown,
): Promise<SsoUser | null> {
  if (emailVerified === false || emailVerified === "false" || !email || !/^[\x21-\x7e]+$/.test(email.trim()))
    return null;
  const normalised = email.trim().toLowerCase();
  const user = await getDb().user.findUnique({
    where: { email: normalised },
    select: { id: true, sessionVersion: true, disabledAt: true },
  });
  if (!user || user.disabledAt) return null;
  await getDb().user.update({ where: { id: user.id }, data: { lastSignInAt: now } });
  return { id: user.id, sessionVersion: user.sessionVersion };
}

/** Authentication methods (RFC 8176 `amr` values) that count as a second factor at the identity provider. */
export const MFA_AMR_VALUES = ["mfa", "otp", "hwk"] as const;

/**
 * How far ahead of Paydesk's clock an `auth_time` may be and still count (as now): the identity
 * provider's clock, within the tolerance the id token's own time checks allow (oauth4webapi's default
 * clock tolerance, 30 s). Further ahead it is no moment at all.
 */
export const SSO_CLOCK_TOLERANCE_SECONDS = 30;

export type ProviderMfa = {
  mfa: boolean;
  /** When the person signed in at the provider; null when the token does not say (never fresh). */
  at: Date | null;
};

/**
 * Whether the identity provider reports multi-factor sign-in: the id token's `amr` (from the claims
 * Auth.js validated, else read from the id token it validated) contains mfa, otp or hwk. `at` is the
 * token's `auth_time` (when the person signed in at the provider), never later than now.
 *
 * Step-up asks the provider for a new sign-in (`prompt=login`, `max_age=0`) and counts from `at`; a
 * provider that ignores that hands back its old session, and only `auth_time` tells. So a token without
 * a numeric `auth_time`, or with one further ahead than the clock tolerance, gives `at: null`: the MFA
 * counts for signing in, but the session has proved no second factor at any moment (step-up asks again).
 */
export function providerMfa(
  claims: { amr?: unknown; auth_time?: unknown } | null | undefined,
  idToken: string | null | undefined,
  now = new Date(),
): ProviderMfa {
  const source = claims && "amr" in claims ? claims : (idTokenClaims(idToken) ?? claims ?? {});
  const amr = Array.isArray(source.amr) ? source.amr.filter((v): v is string => typeof v === "string") : [];
  const mfa = amr.some((v) => (MFA_AMR_VALUES as readonly string[]).includes(v.toLowerCase()));
  return { mfa, at: authTimeOf(source.auth_time, now) };
}

function authTimeOf(value: unknown, now: Date): Date | null {
  if (typeof value !== "number" || !Number.isFinite(value)) return null;
  const at = new Date(value * 1000);
  if (Number.isNaN(at.getTime())) return null;
  if (at.getTime() > now.getTime() + SSO_CLOCK_TOLERANCE_SECONDS * 1000) return null;
  return at > now ? now : at;
}

function idTokenClaims(idToken: string | null | undefined): { amr?: unknown; auth_time?: unknown } | null {
  const payload = idToken?.split(".")[1];
  if (!payload) return null;
  try {
    const claims: unknown = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
    return claims && typeof claims === "object" ? (claims as { amr?: unknown; auth_time?: unknown }) : null;
  } catch {
    return null;
  }
}
