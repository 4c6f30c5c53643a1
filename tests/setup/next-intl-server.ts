// `next-intl/server` for Vitest. Outside Next's server bundle the package resolves to its client build,
// whose every function throws, and tests call pages, route handlers and server actions directly. This
// stand-in answers as the app's request configuration does (i18n/request.ts): the signed-in user's
// language and zone, else the browser's language when a test mocks `next/headers`, else DEFAULT_LOCALE
// and UTC.
import { createFormatter, createTranslator } from "next-intl";
import { currentUser } from "@/lib/auth/session";
import { getEnv } from "@/lib/env";
import type { Locale } from "@/lib/i18n/locales";
import { messagesFor } from "@/lib/i18n/messages";
import { requestPreferences, type RequestPreferences } from "@/lib/auth/request-preferences";

async function preferences(): Promise<RequestPreferences> {
  try {
    return await requestPreferences();
  } catch {
    // `headers()` outside a request scope: no browser to ask.
    const user = await currentUser().catch(() => null);
    return { locale: user?.locale ?? getEnv().DEFAULT_LOCALE, timeZone: user?.timeZone ?? "UTC" };
  }
}

type Options = { namespace?: string; locale?: Locale };

export async function getTranslations(arg?: string | Options) {
  const options: Options = typeof arg === "string" ? { namespace: arg } : (arg ?? {});
  const locale = options.locale ?? (await preferences()).locale;
  return createTranslator({ locale, messages: messagesFor(locale), namespace: options.namespace as never });
}

export async function getLocale(): Promise<Locale> {
  return (await preferences()).locale;
}

export async function getTimeZone(): Promise<string> {
  return (await preferences()).timeZone;
}

export async function getFormatter(options?: { locale?: Locale }) {
  const { locale, timeZone } = await preferences();
  return createFormatter({ locale: options?.locale ?? locale, timeZone });
}

export async function getMessages(options?: { locale?: Locale }) {
  return messagesFor(options?.locale ?? (await preferences()).locale);
}

export async function getNow(): Promise<Date> {
  return new Date();
}

export function getRequestConfig<T>(create: T): T {
  return create;
}

export function setRequestLocale(): void {}
