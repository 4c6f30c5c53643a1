import "server-only";
import { can, type Permission } from "@/lib/auth/permissions";
import { currentUser, type StaffUser } from "@/lib/auth/session";

export type Denied = { ok: false; code: "unauthenticated" | "forbidden"; message: string };
export type Authorized = { ok: true; user: StaffUser };

/** Loads the session and checks one named permission: the check every action and route handler makes. */
export async function authorize(permission: Permission): Promise<Authorized | Denied> {
  const user = await currentUser();
  if (!user) return { ok: false, code: "unauthenticated", message: "Sign in to continue." };
  if (!can(user.role, permission)) {
    return { ok: false, code: "forbidden", message: "Your role does not allow this." };
  }
  return { ok: true, user };
}
