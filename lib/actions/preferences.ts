"use server";
import { z } from "zod";
import { audit } from "@/lib/audit/log";
import { authorizedAction } from "@/lib/auth/action";
import { getDb } from "@/lib/db";
import { LOCALES } from "@/lib/i18n/locales";
import { canonicalTimeZone } from "@/lib/time/zone";

const languageInput = z.object({ locale: z.enum(LOCALES) }).strict();
const timeZoneInput = z
  .object({
    timeZone: z
      .string()
      .max(64)
      .transform((v, ctx) => canonicalTimeZone(v) ?? invalidZone(ctx)),
  })
  .strict();

function invalidZone(ctx: z.RefinementCtx): never {
  ctx.addIssue({ code: "custom", message: "shell.unknownTimeZone" });
  return z.NEVER;
}

/** Saves the user's interface language (kept across sessions; audited). */
export const setLanguage = authorizedAction(
  "profile.update",
  languageInput,
  async ({ locale }, { user, actor }) => {
    await getDb().$transaction(async (tx) => {
      await tx.user.update({ where: { id: user.id }, data: { locale } });
      await audit(tx, actor, {
        action: "user.language.change",
        targetType: "User",
        targetId: user.id,
        before: { locale: user.locale ?? null },
        after: { locale },
      });
    });
    return { ok: true as const, locale };
  },
);

/** Saves the user's time zone: the browser's on first visit, or one chosen in the user menu (audited). */
export const setTimeZone = authorizedAction(
  "profile.update",
  timeZoneInput,
  async ({ timeZone }, { user, actor }) => {
    if (user.timeZone === timeZone) return { ok: true as const, timeZone };
    await getDb().$transaction(async (tx) => {
      await tx.user.update({ where: { id: user.id }, data: { timeZone } });
      await audit(tx, actor, {
        action: "user.timeZone.change",
        targetType: "User",
        targetId: user.id,
        before: { timeZone: user.timeZone ?? null },
        after: { timeZone },
      });
    });
    return { ok: true as const, timeZone };
  },
);
