import "server-only";
import { cache } from "react";
import { redirect } from "next/navigation";
import { auth } from "@/lib/auth/config";
import { can, type Permission, type Role } from "@/lib/auth/permissions";
import {
  ENROLMENT_PATH,
  mustEnrol,
  noSecondFactor,
  type SecondFactorState,
} from "@/lib/auth/two-factor/policy";
import { getDb } from "@/lib/db";
import { isLocale, type Locale } from "@/lib/i18n/locales";
import { toPageError } from "@/lib/errors/database";
import { getSettings } from "@/lib/settings/settings";

export type StaffUser = {
  id: string;
  email: string;
  name: string | null;
  role: Role;
  /** The saved interface language; absent or null follows the browser. */
  locale?: Locale | null;
  /** The saved IANA time zone; absent or null until the browser's zone is stored. */
  timeZone?: string | null;
};

/**
 * The signed-in staff user, read from the database on every request so that disabling a user or
 * changing their role takes effect at once. Null when not signed in or disabled. `auth()` itself
 * refuses a cookie whose server-side session ended (signed out, past its lifetime or idle timeout):
 * see the `jwt` callback in lib/auth/config.ts and lib/auth/session-store.ts.
 */
export const currentUser = cache(
  async (): Promise<StaffUser | null> => (await currentSignIn())?.user ?? null,
);

/** The signed-in user and what their session knows about its second factor (lib/auth/two-factor). */
export type SignedIn = { user: StaffUser; secondFactor: SecondFactorState };

export const currentSignIn = cache(async (): Promise<SignedIn | null> => {
  const session = (await auth()) as { userId?: string; sessionVersion?: number; sessionId?: string } | null;
  if (!session?.userId) return null;
  const [user, row] = await Promise.all([
    getDb().user.findUnique({
      where: { id: session.userId },
      select: {
        id: true,
        email: true,
        name: true,
        role: true,
        locale: true,
        timeZone: true,
        disabledAt: true,
        sessionVersion: true,
        totpEnrolledAt: true,
      },
    }),
    session.sessionId
      ? getDb().session.findFirst({
          where: { id: session.sessionId, userId: session.userId },
          select: { id: true, secondFactorAt: true, identityProviderMfa: true },
        })
      : null,
  ]);
  if (!user || user.disabledAt || user.sessionVersion !== session.sessionVersion) return null;
  return {
    user: {
      id: user.id,
      email: user.email,
      name: user.name,
      role: user.role,
      locale: isLocale(user.locale) ? user.locale : null,
      timeZone: user.timeZone,
    },
    secondFactor: {
      ...noSecondFactor,
      sessionId: row?.id ?? null,
      enrolled: user.totpEnrolledAt !== null,
      identityProviderMfa: row?.identityProviderMfa ?? false,
      verifiedAt: row?.secondFactorAt ?? null,
    },
  };
});

/** True when the signed-in user must set up two-factor before anything else (lib/auth/two-factor/policy.ts). */
export async function mustEnrolFirst(signedIn: SignedIn): Promise<boolean> {
  return mustEnrol(signedIn.user.role, signedIn.secondFactor, await getSettings());
}

/**
 * For pages: redirects to sign-in when signed out, to two-factor enrolment when the policy requires it
 * first, and to the forbidden page without the permission.
 */
export async function requirePagePermission(permission: Permission): Promise<StaffUser> {
  const user = await requireSignedIn();
  if (!can(user.role, permission)) redirect("/forbidden");
  return user;
}

/**
 * Any signed-in user; one who must set up two-factor first is sent to enrolment, except from the
 * enrolment page itself (`allowBeforeEnrolment`).
 */
export async function requireSignedIn(options: { allowBeforeEnrolment?: boolean } = {}): Promise<StaffUser> {
  const signedIn = await forPage(currentSignIn);
  if (!signedIn) redirect("/login");
  if (!options.allowBeforeEnrolment && (await forPage(() => mustEnrolFirst(signedIn)))) {
    redirect(ENROLMENT_PATH);
  }
  return signedIn.user;
}

/**
 * Every console page and its layout start here, so this is where an unusable database is first met:
 * it becomes an error the error boundary can name (see lib/errors/database.ts).
 */
async function forPage<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw await toPageError(error);
  }
}
