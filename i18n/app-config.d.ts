import type { CatalogMessages } from "@/i18n/messages-type";
import type { Locale } from "@/lib/i18n/locales";

declare module "next-intl" {
  interface AppConfig {
    Locale: Locale;
    Messages: CatalogMessages;
  }
}
