import "server-only";
import type { Messages, NamespaceKeys, NestedKeyOf } from "next-intl";
// use-intl's core (no React): also loaded by the worker, a plain Node process where next-intl's React
// entry points cannot load.
import { createTranslator } from "use-intl/core";
import type { Locale } from "@/lib/i18n/locales";
import { messagesFor } from "@/lib/i18n/messages";

export type Namespace = NamespaceKeys<Messages, NestedKeyOf<Messages>>;

/** A translator for one namespace in a language the caller knows (see lib/auth/translator.ts otherwise). */
export function translatorIn<N extends Namespace>(namespace: N, locale: Locale) {
  return createTranslator({ locale, messages: messagesFor(locale) as Messages, namespace });
}
