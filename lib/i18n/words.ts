import "server-only";
import { createTranslator, type Messages, type NamespaceKeys, type NestedKeyOf } from "next-intl";
import { getEnv } from "@/lib/env";
import type { Locale } from "@/lib/i18n/locales";
import { messagesFor } from "@/lib/i18n/messages";
import { requestPreferences } from "@/lib/i18n/request-locale";
import { translatorFor } from "@/lib/i18n/server";
import type { Problem } from "@/lib/validation/issues";

/**
 * The language to word a result in: the request's (the user's choice, else the browser's), or
 * DEFAULT_LOCALE where there is no request (a worker job, a script, lib code called by a test). Next's
 * own signals (thrown with a `digest`: dynamic rendering, redirects) pass through untouched.
 */
export async function currentLocale(): Promise<Locale> {
  try {
    return (await requestPreferences()).locale;
  } catch (error) {
    if (typeof error === "object" && error !== null && "digest" in error) throw error;
    return getEnv().DEFAULT_LOCALE;
  }
}

/** A translator for lib code that may run inside or outside a request (see currentLocale). */
export async function wordsFor<Namespace extends NamespaceKeys<Messages, NestedKeyOf<Messages>>>(
  namespace: Namespace,
  locale?: Locale,
) {
  return translatorFor(namespace, locale ?? (await currentLocale()));
}

/** A problem (a catalog key and its arguments, as schemas and checks return them) in words. */
export async function wordProblem(problem: Problem, locale?: Locale): Promise<string> {
  const chosen = locale ?? (await currentLocale());
  const t = createTranslator({ locale: chosen, messages: messagesFor(chosen) });
  const key = problem.message as never;
  return t.has(key) ? t(key, problem.params as never) : problem.message;
}
