"use server";
import { z } from "zod";
import { stepUpAction } from "@/lib/auth/action";
import { translatorFor } from "@/lib/auth/translator";
import { getLog } from "@/lib/log";
import {
  emailSchema,
  nameSchema,
  passwordSchema,
  refusePasswordWithSsoOnly,
  roleSchema,
} from "@/lib/users/schemas";
import {
  createUser,
  disableUser,
  enableUser,
  findUserById,
  generatePassword,
  LockoutRefused,
  removePassword,
  resetPassword,
  setRole,
  UserError,
  type LockoutProblem,
} from "@/lib/users/service";

// One schema for the users page's forms; each action picks its fields.
const usersFormSchema = z
  .object({
    userId: z.uuid({ error: "admin.users.errors.notAUserId" }).transform((s) => s.toLowerCase()),
    email: emailSchema,
    name: nameSchema.optional(),
    role: roleSchema,
    // Empty: a password is generated and shown once.
    password: z
      .union([z.literal(""), passwordSchema], { error: "admin.users.errors.passwordText" })
      .optional(),
    // Single sign-on only: no password at all (then none may be given, not even an empty one).
    ssoOnly: z.boolean({ error: "admin.users.errors.ssoOnlyChoice" }).optional(),
  })
  .strict();

const createInput = usersFormSchema
  .pick({ email: true, name: true, role: true, password: true, ssoOnly: true })
  .strict()
  .superRefine(refusePasswordWithSsoOnly);
const roleInput = usersFormSchema.pick({ userId: true, role: true }).strict();
const userInput = usersFormSchema.pick({ userId: true }).strict();
const resetInput = usersFormSchema.pick({ userId: true, password: true }).strict();

type Failure = { ok: false; code: "not_found" | "not_allowed" | "conflict" | "failed"; message: string };

/** Refusals of the service that are not a conflict with another user's data: the change is not allowed. */
const NOT_ALLOWED: ReadonlySet<UserError["code"]> = new Set(["ssoNotConfigured", "noPassword"]);

const words = () => translatorFor("admin");

async function refusal(
  code: Failure["code"],
  problem: "noSuchUser" | "alreadyDisabled" | "notDisabled" | LockoutProblem,
) {
  return { ok: false as const, code, message: (await words())(`users.errors.${problem}`) };
}

async function safely<T>(run: () => Promise<T>): Promise<T | Failure> {
  try {
    return await run();
  } catch (error) {
    const t = await words();
    // A UserError is ours (e.g. "A user with email … already exists."), fine to show.
    if (error instanceof UserError) {
      const code = NOT_ALLOWED.has(error.code) ? "not_allowed" : "conflict";
      return { ok: false, code, message: t(`users.errors.${error.code}`, error.values) };
    }
    if (error instanceof LockoutRefused) return refusal("not_allowed", error.problem);
    getLog().error({ err: error }, "user administration failed");
    return { ok: false, code: "failed", message: t("users.errors.failed") };
  }
}

/**
 * Creates a staff user; without a password one is generated and returned once; single sign-on only
 * (`ssoOnly`), with no password at all, when single sign-on is configured (users.manage).
 */
export const createUserAction = stepUpAction("users.manage", createInput, async (input, { actor }) =>
  safely(async () => {
    const ssoOnly = input.ssoOnly === true;
    const generated = ssoOnly || input.password ? null : generatePassword();
    const user = await createUser(actor, {
      email: input.email,
      role: input.role,
      name: input.name || undefined,
      ...(ssoOnly ? { ssoOnly } : { password: input.password || generated! }),
    });
    return { ok: true as const, user: { id: user.id, email: user.email, role: user.role }, generated };
  }),
);

/** Changes a user's role; never your own, never the last admin's (users.manage). */
export const setUserRoleAction = stepUpAction("users.manage", roleInput, async (input, { user: me, actor }) =>
  safely(async (): Promise<Failure | { ok: true; role: string }> => {
    const user = await findUserById(input.userId);
    if (!user) return refusal("not_found", "noSuchUser");
    if (user.role === input.role) return { ok: true, role: user.role };
    const updated = await setRole(actor, user.email, input.role, me);
    return { ok: true, role: updated.role };
  }),
);

/** Disables a user and ends their sessions (users.manage). */
export const disableUserAction = stepUpAction("users.manage", userInput, async (input, { user: me, actor }) =>
  safely(async (): Promise<Failure | { ok: true }> => {
    const user = await findUserById(input.userId);
    if (!user) return refusal("not_found", "noSuchUser");
    if (user.disabledAt) return refusal("not_allowed", "alreadyDisabled");
    await disableUser(actor, user.email, me);
    return { ok: true };
  }),
);

/** Enables a disabled user again; they sign in as before (users.manage). */
export const enableUserAction = stepUpAction("users.manage", userInput, async (input, { actor }) =>
  safely(async (): Promise<Failure | { ok: true }> => {
    const user = await findUserById(input.userId);
    if (!user) return refusal("not_found", "noSuchUser");
    if (!user.disabledAt) return refusal("not_allowed", "notDisabled");
    await enableUser(actor, user.email);
    return { ok: true };
  }),
);

/**
 * Sets another user's password (generated and shown once when empty) and ends their sessions; never
 * one's own (users.manage).
 */
export const resetUserPasswordAction = stepUpAction(
  "users.manage",
  resetInput,
  async (input, { user: me, actor }) =>
    safely(async (): Promise<Failure | { ok: true; generated: string | null }> => {
      const user = await findUserById(input.userId);
      if (!user) return refusal("not_found", "noSuchUser");
      if (user.id === me.id) return refusal("not_allowed", "resetOwnPassword");
      const generated = input.password ? null : generatePassword();
      await resetPassword(actor, user.email, input.password || generated!, me);
      return { ok: true, generated };
    }),
);

/**
 * Makes another user single-sign-on only: their password is removed and their sessions end; never
 * one's own, and only while single sign-on is configured (users.manage). A reset gives them one again.
 */
export const removeUserPasswordAction = stepUpAction(
  "users.manage",
  userInput,
  async (input, { user: me, actor }) =>
    safely(async (): Promise<Failure | { ok: true }> => {
      const user = await findUserById(input.userId);
      if (!user) return refusal("not_found", "noSuchUser");
      if (user.id === me.id) return refusal("not_allowed", "removeOwnPassword");
      await removePassword(actor, user.email, me);
      return { ok: true };
    }),
);
