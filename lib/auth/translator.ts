import "server-only";
import { headers } from "next/headers";
import { createTranslator } from "use-intl/core";
import { getEnv } from "@/lib/env";
import type { Locale } from "@/lib/i18n/locales";
import { messagesFor } from "@/lib/i18n/messages";
import { translatorIn, type Namespace } from "@/lib/i18n/translate";
import type { Problem } from "@/lib/i18n/issues";
import { asWords, type Words } from "@/lib/i18n/worded-note";

/**
 * The language to word a result in: the request's (the user's choice, else the browser's), or
 * DEFAULT_LOCALE where there is no request (a worker job, a script, lib code called by a test). Outside
 * a request the request's modules are not even loaded: the worker, a plain Node process, cannot load
 * them. Next's own signals (thrown with a `digest`: dynamic rendering, redirects) pass through untouched.
 */
export async function currentLocale(): Promise<Locale> {
  try {
    await headers();
  } catch (error) {
    if (typeof error === "object" && error !== null && "digest" in error) throw error;
    return getEnv().DEFAULT_LOCALE;
  }
  const { requestPreferences } = await import("@/lib/auth/request-preferences");
  return (await requestPreferences()).locale;
}

/**
 * A translator for code outside React (server actions' messages, exports, jobs): the request's
 * language (see currentLocale), or the one given (a job writing for a particular user).
 */
export async function translatorFor<N extends Namespace>(namespace: N, locale?: Locale) {
  return translatorIn(namespace, locale ?? (await currentLocale()));
}

/** A translator with the language it words in (amounts in the text are formatted for it too). */
export async function wordsIn<N extends Namespace>(namespace: N, locale?: Locale) {
  const chosen = locale ?? (await currentLocale());
  return { t: await translatorFor(namespace, chosen), locale: chosen };
}

/** A problem (a catalog key and its arguments, as schemas and checks return them) in words. */
export async function wordProblem(problem: Problem, locale?: Locale): Promise<string> {
  const chosen = locale ?? (await currentLocale());
  const t = createTranslator({ locale: chosen, messages: messagesFor(chosen) });
  const key = problem.message as never;
  return t.has(key) ? t(key, problem.params as never) : problem.message;
}

/** The whole catalog (no namespace), for notes whose keys are built from stored codes (worded-note.ts). */
export async function catalogWords(locale?: Locale): Promise<Words> {
  const chosen = locale ?? (await currentLocale());
  return asWords(createTranslator({ locale: chosen, messages: messagesFor(chosen) }));
}
