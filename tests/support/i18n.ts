// The catalogs in tests: translators for lib functions that take their words as an argument, and the
// words of a schema's or a check's catalog keys (as the server action would show them).
import { createTranslator, type Messages } from "next-intl";
import type { z } from "zod";
import type { Locale } from "@/lib/i18n/locales";
import { messagesFor } from "@/lib/i18n/messages";
import { localizedFieldErrors } from "@/lib/i18n/validation";
import type { Problem } from "@/lib/i18n/issues";

const messages = (locale: Locale) => messagesFor(locale) as Messages;

export const payoutWordsIn = (locale: Locale = "en") => ({
  t: createTranslator({ locale, messages: messages(locale), namespace: "payouts" }),
  locale,
});

export const platformWordsIn = (locale: Locale = "en") => ({
  t: createTranslator({ locale, messages: messages(locale), namespace: "platformErrors" }),
  locale,
});

/** A problem (catalog key and arguments) in words; null stays null. */
export function word(problem: Problem | null, locale: Locale = "en"): string | null {
  if (!problem) return null;
  const t = createTranslator({ locale, messages: messages(locale) });
  return t(problem.message as never, problem.params as never);
}

/** The field errors of a failed parse in words, as the server action returns them. */
export function wordedErrors(error: z.ZodError, locale: Locale = "en"): Record<string, string[] | undefined> {
  return localizedFieldErrors(error, locale);
}
