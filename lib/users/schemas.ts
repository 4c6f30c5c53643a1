import { z } from "zod";
import { roles } from "@/lib/auth/permissions";
import { safeText } from "@/lib/validation/text";

export const emailSchema = z
  .email("must be an email address")
  .max(320)
  .transform((v) => v.trim().toLowerCase());
export const roleSchema = z.enum(roles, { error: `must be one of: ${roles.join(", ")}` });
export const passwordSchema = z.string().min(12, "must be at least 12 characters").max(1024);
/** Shown to other staff (audit log, approvals): no invisible or bidi characters. */
export const nameSchema = z
  .string({ error: "The name must be text." })
  .trim()
  .max(200, "At most 200 characters.")
  .superRefine(safeText("name"));

export const createUserSchema = z.object({
  email: emailSchema,
  role: roleSchema,
  name: nameSchema.optional(),
  password: passwordSchema,
});
