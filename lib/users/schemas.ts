import { z } from "zod";
import { roles } from "@/lib/auth/permissions";
import { safeText } from "@/lib/validation/text";

// Messages are catalog keys (admin.users.errors.*): server actions word them in the user's language,
// the command line (scripts/user.ts) in English.
export const emailSchema = z
  .email("admin.users.errors.emailInvalid")
  .max(320)
  .transform((v) => v.trim().toLowerCase());
export const roleSchema = z.enum(roles, { error: "admin.users.errors.roleInvalid" });
/** The shortest password accepted, wherever one is set (created, reset, changed by its owner). */
export const PASSWORD_MIN_LENGTH = 12;
/**
 * Any text of 12 to 1024 characters: a password is hashed and never shown, so unlike a name it may
 * hold any character (controls, bidi marks) and is taken exactly as typed, never trimmed.
 */
export const passwordSchema = z
  .string()
  .min(PASSWORD_MIN_LENGTH, "admin.users.errors.passwordShort")
  .max(1024);
/** Shown to other staff (audit log, approvals): no invisible or bidi characters. */
export const nameSchema = z
  .string({ error: "admin.users.errors.nameText" })
  .trim()
  .max(200, "admin.users.errors.nameLong")
  .superRefine(safeText("name"));

/**
 * A user is created with a password, or "single sign-on only" (`ssoOnly: true`) with none at all: they
 * sign in through the identity provider, so nobody (their admin included) knows a password of theirs.
 * Then a password must be absent: one given is refused rather than ignored.
 */
export const createUserSchema = z
  .object({
    email: emailSchema,
    role: roleSchema,
    name: nameSchema.optional(),
    password: passwordSchema.optional(),
    ssoOnly: z.boolean({ error: "admin.users.errors.ssoOnlyChoice" }).optional(),
  })
  .strict()
  .superRefine(refusePasswordWithSsoOnly)
  .superRefine((user, ctx) => {
    if (!user.ssoOnly && user.password === undefined)
      ctx.addIssue({ code: "custom", path: ["password"], message: "admin.users.errors.passwordRequired" });
  });

/** A password given for a user created single-sign-on only is refused, on the password. */
export function refusePasswordWithSsoOnly(
  user: { ssoOnly?: boolean | undefined; password?: unknown },
  ctx: z.RefinementCtx,
) {
  if (user.ssoOnly === true && user.password !== undefined)
    ctx.addIssue({ code: "custom", path: ["password"], message: "admin.users.errors.passwordWithSsoOnly" });
}

/** The password a user types to prove it is theirs: only its presence and size are checked. */
export const currentPasswordSchema = z
  .string({ error: "account.password.errors.currentRequired" })
  .min(1, "account.password.errors.currentRequired")
  .max(1024);

type PasswordPair = { current: string; next: string };

/** A new password the same as the current one changes nothing: refused on the new one. */
function refuseReuse(pair: PasswordPair, ctx: z.RefinementCtx) {
  if (pair.next === pair.current)
    ctx.addIssue({ code: "custom", path: ["next"], message: "account.password.errors.sameAsCurrent" });
}

const passwordPair = { current: currentPasswordSchema, next: passwordSchema };

/** Changing one's own password (lib/users/service.ts changeOwnPassword): the current one and a new one. */
export const changeOwnPasswordSchema = z.object(passwordPair).strict().superRefine(refuseReuse);

/** The change-password form: the same, and the new password typed twice. */
export const changeOwnPasswordFormSchema = z
  .object({ ...passwordPair, confirm: z.string().max(1024) })
  .strict()
  .superRefine((form, ctx) => {
    refuseReuse(form, ctx);
    if (form.confirm !== form.next)
      ctx.addIssue({ code: "custom", path: ["confirm"], message: "account.password.errors.confirmMismatch" });
  });
