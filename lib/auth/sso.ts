import "server-only";
import { getDb } from "@/lib/db";

export type SsoUser = { id: string; sessionVersion: number };

/**
 * Single sign-on admits only people who already have a Paydesk user (matched by email, case-insensitive)
 * that is not disabled; the identity provider proves who they are, Paydesk decides their role.
 */
export async function ssoUserFor(
  email: string | null | undefined,
  now = new Date(),
): Promise<SsoUser | null> {
  const normalised = email?.trim().toLowerCase();
  if (!normalised) return null;
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

export type ProviderMfa = { mfa: boolean; at: Date };

/**
 * Whether the identity provider reports multi-factor sign-in: the id token's `amr` (from the claims
 * Auth.js validated, else read from the id token it validated) contains mfa, otp or hwk. `at` is the
 * token's `auth_time` (when the person signed in at the provider), never later than now.
 */
export function providerMfa(
  claims: { amr?: unknown; auth_time?: unknown } | null | undefined,
  idToken: string | null | undefined,
  now = new Date(),
): ProviderMfa {
  const source = claims && "amr" in claims ? claims : (idTokenClaims(idToken) ?? claims ?? {});
  const amr = Array.isArray(source.amr) ? source.amr.filter((v): v is string => typeof v === "string") : [];
  const mfa = amr.some((v) => (MFA_AMR_VALUES as readonly string[]).includes(v.toLowerCase()));
  const authTime =
    typeof source.auth_time === "number" && Number.isFinite(source.auth_time)
      ? new Date(source.auth_time * 1000)
      : now;
  return { mfa, at: authTime > now ? now : authTime };
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
