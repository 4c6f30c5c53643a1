import "server-only";
import { createTranslator, type Messages, type NamespaceKeys, type NestedKeyOf } from "next-intl";
import type { Locale } from "@/lib/i18n/locales";
import { messagesFor } from "@/lib/i18n/messages";
import { requestPreferences } from "@/lib/auth/request-preferences";

/**
 * A translator for code outside React (server actions' messages, exports, e-mails, jobs): the
 * request's language, or the one given (a job writing for a particular user).
 */
export async function translatorFor<Namespace extends NamespaceKeys<Messages, NestedKeyOf<Messages>>>(
  namespace: Namespace,
  locale?: Locale,
) {
  const chosen = locale ?? (await requestPreferences()).locale;
  return createTranslator({ locale: chosen, messages: messagesFor(chosen) as Messages, namespace });
}
