import "server-only";
import { authorize } from "@/lib/auth/authorize";
import type { Permission } from "@/lib/auth/permissions";
import type { StaffUser } from "@/lib/auth/session";

/**
 * Wraps a route handler: 401 without a session, 403 without the permission (JSON bodies with a code),
 * otherwise runs the handler with the signed-in user.
 */
export function withPermission(
  permission: Permission,
  handler: (request: Request, user: StaffUser) => Promise<Response>,
): (request: Request) => Promise<Response> {
  return async (request: Request) => {
    const auth = await authorize(permission);
    if (!auth.ok) {
      return Response.json(
        { ok: false, code: auth.code, message: auth.message },
        { status: auth.code === "unauthenticated" ? 401 : 403 },
      );
    }
    return handler(request, auth.user);
  };
}
