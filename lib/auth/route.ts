import "server-only";
import type { ActionContext } from "@/lib/auth/action";
import { actorFor } from "@/lib/auth/actor";
import { authorize } from "@/lib/auth/authorize";
import type { Permission } from "@/lib/auth/permissions";

/**
 * Wraps a route handler: 401 without a session, 403 without the permission (JSON bodies with a code),
 * otherwise runs the handler with the context (the signed-in user and the actor for the audit log).
 */
export function withPermission(
  permission: Permission,
  handler: (request: Request, context: ActionContext) => Promise<Response>,
): (request: Request) => Promise<Response> {
  return async (request: Request) => {
    const auth = await authorize(permission);
    if (!auth.ok) {
      return Response.json(
        { ok: false, code: auth.code, message: auth.message },
        { status: auth.code === "unauthenticated" ? 401 : 403 },
      );
    }
    return handler(request, { user: auth.user, actor: await actorFor(auth.user) });
  };
}
