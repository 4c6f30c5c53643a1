import { z } from "zod";
import { roles } from "@/lib/auth/permissions";

export const emailSchema = z
  .email("must be an email address")
  .max(320)
  .transform((v) => v.trim().toLowerCase());
export const roleSchema = z.enum(roles, { error: `must be one of: ${roles.join(", ")}` });
export const passwordSchema = z.string().min(12, "must be at least 12 characters").max(1024);

export const createUserSchema = z.object({
  email: emailSchema,
  role: roleSchema,
  name: z.string().trim().max(200).optional(),
  password: passwordSchema,
});
