import "server-only";
import { headers } from "next/headers";
import type { Messages, NamespaceKeys, NestedKeyOf } from "next-intl";
// use-intl's core (no React): this module is also loaded by the worker, a plain Node process where
// next-intl's React entry points cannot load.
import { createTranslator } from "use-intl/core";
import { getEnv } from "@/lib/env";
import type { Locale } from "@/lib/i18n/locales";
import { messagesFor } from "@/lib/i18n/messages";
import type { Problem } from "@/lib/validation/issues";

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
  const { requestPreferences } = await import("@/lib/i18n/request-locale");
  return (await requestPreferences()).locale;
}

/** A translator for lib code that may run inside or outside a request (see currentLocale). */
export async function wordsFor<Namespace extends NamespaceKeys<Messages, NestedKeyOf<Messages>>>(
  namespace: Namespace,
  locale?: Locale,
) {
  const chosen = locale ?? (await currentLocale());
  return createTranslator({ locale: chosen, messages: messagesFor(chosen) as Messages, namespace });
}

/** A problem (a catalog key and its arguments, as schemas and checks return them) in words. */
export async function wordProblem(problem: Problem, locale?: Locale): Promise<string> {
  const chosen = locale ?? (await currentLocale());
  const t = createTranslator({ locale: chosen, messages: messagesFor(chosen) });
  const key = problem.message as never;
  return t.has(key) ? t(key, problem.params as never) : problem.message;
}
