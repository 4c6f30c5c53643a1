import "server-only";
import { cache } from "react";
import { redirect } from "next/navigation";
import { auth } from "@/lib/auth/config";
import { can, type Permission, type Role } from "@/lib/auth/permissions";
import { getDb } from "@/lib/db";
import { isLocale, type Locale } from "@/lib/i18n/locales";
import { toPageError } from "@/lib/errors/database";

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
export const currentUser = cache(async (): Promise<StaffUser | null> => {
  const session = (await auth()) as { userId?: string; sessionVersion?: number } | null;
  if (!session?.userId) return null;
  const user = await getDb().user.findUnique({
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
    },
  });
  if (!user || user.disabledAt || user.sessionVersion !== session.sessionVersion) return null;
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    role: user.role,
    locale: isLocale(user.locale) ? user.locale : null,
    timeZone: user.timeZone,
  };
});

/** For pages: redirects to sign-in when signed out, and to the forbidden page without the permission. */
export async function requirePagePermission(permission: Permission): Promise<StaffUser> {
  const user = await currentUserForPage();
  if (!user) redirect("/login");
  if (!can(user.role, permission)) redirect("/forbidden");
  return user;
}

export async function requireSignedIn(): Promise<StaffUser> {
  const user = await currentUserForPage();
  if (!user) redirect("/login");
  return user;
}

/**
 * Every console page and its layout start here, so this is where an unusable database is first met:
 * it becomes an error the error boundary can name (see lib/errors/database.ts).
 */
async function currentUserForPage(): Promise<StaffUser | null> {
  try {
    return await currentUser();
  } catch (error) {
    throw await toPageError(error);
  }
}
