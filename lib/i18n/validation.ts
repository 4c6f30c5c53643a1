import "server-only";
import { createTranslator } from "use-intl/core";
import { z } from "zod";
import { en, ru } from "zod/locales";
import type { Locale } from "@/lib/i18n/locales";
import { messagesFor } from "@/lib/i18n/messages";
import { addFieldError, messageArguments, type FieldErrors } from "@/lib/i18n/issues";

export type { FieldErrors } from "@/lib/i18n/issues";

const ZOD_LOCALES = { ru, en } satisfies Record<Locale, () => { localeError: z.core.$ZodErrorMap }>;

/**
 * Parses with zod's own messages in the user's language, then words the schema's custom messages:
 * a schema writes a catalog key ("payouts.form.amountRequired") where it would write a sentence, and
 * the issue's `minimum`/`maximum` (and a custom issue's `params`) are offered to the message as arguments.
 */
export function parseLocalized<S extends z.ZodType>(schema: S, input: unknown, locale: Locale) {
  const parsed = schema.safeParse(input, { error: ZOD_LOCALES[locale]().localeError });
  if (parsed.success) return parsed;
  return { ...parsed, fieldErrors: localizedFieldErrors(parsed.error, locale) };
}

export function localizedFieldErrors(error: z.ZodError, locale: Locale): FieldErrors {
  const t = createTranslator({ locale, messages: messagesFor(locale) });
  const out: FieldErrors = {};
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? "");
    addFieldError(out, field, localizedIssueMessage(issue, t));
  }
  return out;
}

type AnyTranslator = ReturnType<typeof createTranslator>;

function localizedIssueMessage(issue: z.core.$ZodIssue, t: AnyTranslator): string {
  const key = issue.message;
  if (!/^[a-zA-Z]+(\.[a-zA-Z0-9]+)+$/.test(key) || !t.has(key as never)) return issue.message;
  const values: Record<string, string | number> = {};
  if ("minimum" in issue) values.minimum = String(issue.minimum);
  if ("maximum" in issue) values.maximum = String(issue.maximum);
  // a custom issue's arguments ("U+202E", a method's name...): `ctx.addIssue({ message, params })`
  if (issue.code === "custom") Object.assign(values, messageArguments(issue.params));
  return t(key as never, values as never);
}
