import { getRequestConfig } from "next-intl/server";
import { messagesFor } from "@/lib/i18n/messages";
import { requestPreferences } from "@/lib/auth/request-preferences";

// next-intl's per-request configuration (found by the plugin in next.config.ts).
export default getRequestConfig(async () => {
  const { locale, timeZone } = await requestPreferences();
  return { locale, timeZone, messages: messagesFor(locale) };
});
