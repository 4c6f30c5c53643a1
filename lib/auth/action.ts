import "server-only";
import { z } from "zod";
import { actorFor } from "@/lib/auth/actor";
import type { StaffActor } from "@/lib/audit/log";
import { authorize, type Denied } from "@/lib/auth/authorize";
import type { Permission } from "@/lib/auth/permissions";
import type { StaffUser } from "@/lib/auth/session";
import { requestPreferences } from "@/lib/auth/request-preferences";
import { translatorFor } from "@/lib/auth/translator";
import { parseLocalized } from "@/lib/i18n/validation";

export type InvalidInput = {
  ok: false;
  code: "invalid";
  message: string;
  fieldErrors: Record<string, string[] | undefined>;
};

export type ActionFailure = Denied | InvalidInput;

/** What an action's or route's handler is given: the signed-in user and the actor for the audit log. */
export type ActionContext = { user: StaffUser; actor: StaffActor };

/**
 * Wraps a server action: loads the session, checks the permission, validates the input with the
 * schema (its messages in the user's language), then runs the handler with the context (user and actor). Denials and invalid input come back
 * as typed results.
 */
export function authorizedAction<S extends z.ZodType, R>(
  permission: Permission,
  schema: S,
  handler: (input: z.output<S>, context: ActionContext) => Promise<R>,
): (input?: unknown) => Promise<R | ActionFailure> {
  // input is optional so that an action without input (e.g. the connection test) is called with none
  return async (input?: unknown) => {
    const auth = await authorize(permission);
    if (!auth.ok) return auth;
    const parsed = parseLocalized(schema, input, (await requestPreferences()).locale);
    if (!parsed.success) {
      const t = await translatorFor("common");
      return { ok: false, code: "invalid", message: t("checkFields"), fieldErrors: parsed.fieldErrors };
    }
    return handler(parsed.data, { user: auth.user, actor: await actorFor(auth.user) });
  };
}
