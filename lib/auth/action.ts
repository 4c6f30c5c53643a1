import "server-only";
import { z } from "zod";
import { actorFor } from "@/lib/auth/actor";
import type { StaffActor } from "@/lib/audit/log";
import { authorize, type Denied } from "@/lib/auth/authorize";
import type { Permission } from "@/lib/auth/permissions";
import { currentSignIn, type StaffUser } from "@/lib/auth/session";
import { stepUpNeeded } from "@/lib/auth/two-factor/step-up";
import { getSettings } from "@/lib/settings/settings";
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

type Handler<S extends z.ZodType, R> = (input: z.output<S>, context: ActionContext) => Promise<R>;

function actionGuardedBy(options: { stepUp: boolean }) {
  return <S extends z.ZodType, R>(permission: Permission, schema: S, handler: Handler<S, R>) =>
    guardedAction(permission, schema, handler, options);
}

/**
 * Wraps a server action: loads the session, checks the permission, validates the input with the
 * schema (its messages in the user's language), then runs the handler with the context (user and actor). Denials and invalid input come back
 * as typed results.
 */
export const authorizedAction = actionGuardedBy({ stepUp: false });

function guardedAction<S extends z.ZodType, R>(
  permission: Permission,
  schema: S,
  handler: Handler<S, R>,
  options: { stepUp: boolean },
): (input?: unknown) => Promise<R | ActionFailure> {
  // input is optional so that an action without input (e.g. the connection test) is called with none
  return async (input?: unknown) => {
    const auth = await authorize(permission);
    if (!auth.ok) return auth;
    if (options.stepUp) {
      const refused = await refuseWithoutStepUp();
      if (refused) return refused;
    }
    const parsed = parseLocalized(schema, input, (await requestPreferences()).locale);
    if (!parsed.success) {
      const t = await translatorFor("common");
      return { ok: false, code: "invalid", message: t("checkFields"), fieldErrors: parsed.fieldErrors };
    }
    return handler(parsed.data, { user: auth.user, actor: await actorFor(auth.user) });
  };
}

/**
 * authorizedAction for the actions that move money or change who may do what (approving a pay-out,
 * settings, users, revealing a full number): they also need a second factor proved by this session
 * within the step-up window (lib/auth/two-factor/step-up.ts), checked before the input is read.
 */
export const stepUpAction = actionGuardedBy({ stepUp: true });

async function refuseWithoutStepUp(): Promise<Denied | null> {
  const signedIn = await currentSignIn();
  if (!signedIn) return null;
  const method = stepUpNeeded(signedIn.secondFactor, await getSettings(), new Date());
  if (!method) return null;
  const t = await translatorFor("twoFactor");
  return {
    ok: false,
    code: "step_up_required",
    method,
    message: t(method === "totp" ? "errors.stepUpCode" : "errors.stepUpSso"),
  };
}
