import "server-only";
import { cache } from "react";
import { headers } from "next/headers";
import { currentUser } from "@/lib/auth/session";
import { getEnv } from "@/lib/env";
import { localeFromAcceptLanguage, type Locale } from "@/lib/i18n/locales";

export type RequestPreferences = { locale: Locale; timeZone: string };

/**
 * The language and time zone of this request: the signed-in user's saved language, else the
 * browser's Accept-Language, else DEFAULT_LOCALE; the user's saved zone, else UTC. Signed out (the
 * sign-in page) or with the database unreachable, the browser decides.
 * Outside a request, DEFAULT_LOCALE.
 */
export const requestPreferences = cache(async (): Promise<RequestPreferences> => {
  const user = await currentUser().catch(() => null);
  const browser = localeFromAcceptLanguage(await acceptLanguage());
  return {
    locale: user?.locale ?? browser ?? getEnv().DEFAULT_LOCALE,
    timeZone: user?.timeZone ?? "UTC",
  };
});

/** The browser's Accept-Language; outside a request (a job, the command line) there is no browser. */
async function acceptLanguage(): Promise<string | null> {
  try {
    return (await headers()).get("accept-language");
  } catch {
    return null;
  }
}
