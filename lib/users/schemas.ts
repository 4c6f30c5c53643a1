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
export const passwordSchema = z.string().min(12, "admin.users.errors.passwordShort").max(1024);
/** Shown to other staff (audit log, approvals): no invisible or bidi characters. */
export const nameSchema = z
  .string({ error: "admin.users.errors.nameText" })
  .trim()
  .max(200, "admin.users.errors.nameLong")
  .superRefine(safeText("name"));

export const createUserSchema = z.object({
  email: emailSchema,
  role: roleSchema,
  name: nameSchema.optional(),
  password: passwordSchema,
});
