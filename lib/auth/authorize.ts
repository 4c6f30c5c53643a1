import "server-only";
import { can, type Permission } from "@/lib/auth/permissions";
import { currentUser, type StaffUser } from "@/lib/auth/session";
import { translatorFor } from "@/lib/auth/translator";

export type Denied = { ok: false; code: "unauthenticated" | "forbidden"; message: string };
export type Authorized = { ok: true; user: StaffUser };

/** Loads the session and checks one named permission: the check every action and route handler makes. */
export async function authorize(permission: Permission): Promise<Authorized | Denied> {
  const user = await currentUser();
  if (user && can(user.role, permission)) return { ok: true, user };
  const t = await translatorFor("common");
  if (!user) return { ok: false, code: "unauthenticated", message: t("signInToContinue") };
  return { ok: false, code: "forbidden", message: t("roleDoesNotAllow") };
}
