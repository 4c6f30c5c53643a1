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
