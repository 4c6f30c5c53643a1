"use server";
import { z } from "zod";
import { audit } from "@/lib/audit/log";
import { authorizedAction, type ActionContext } from "@/lib/auth/action";
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

/** Saves one of the user's own preferences with its audit entry. */
async function savePreference(
  { user, actor }: ActionContext,
  key: "locale" | "timeZone",
  value: string,
  action: string,
) {
  await getDb().$transaction(async (tx) => {
    await tx.user.update({ where: { id: user.id }, data: { [key]: value } });
    await audit(tx, actor, {
      action,
      targetType: "user",
      targetId: user.id,
      before: { [key]: user[key] ?? null },
      after: { [key]: value },
    });
  });
}

/** Saves the user's interface language (kept across sessions; audited). */
export const setLanguage = authorizedAction("profile.update", languageInput, async ({ locale }, context) => {
  await savePreference(context, "locale", locale, "user.language.change");
  return { ok: true as const, locale };
});

/** Saves the user's time zone: the browser's on first visit, or one chosen in the user menu (audited). */
export const setTimeZone = authorizedAction(
  "profile.update",
  timeZoneInput,
  async ({ timeZone }, context) => {
    if (context.user.timeZone === timeZone) return { ok: true as const, timeZone };
    await savePreference(context, "timeZone", timeZone, "user.timeZone.change");
    return { ok: true as const, timeZone };
  },
);
