"use client";
import "./globals.css";
import { NextIntlClientProvider } from "next-intl";
import { useSyncExternalStore } from "react";
import { ErrorPanel } from "@/components/errors/error-panel";
import { localeFromAcceptLanguage, type Locale } from "@/lib/i18n/locales";
import en from "@/messages/en/errors.json";
import ru from "@/messages/ru/errors.json";

// The root layout itself failed: this replaces the whole document, without the layout's language
// provider. The words come with this file (the `errors` catalogs only), in the browser's language; on
// the server, or when the browser asks for neither of ours, in both.
const catalogs: Record<Locale, typeof en> = { ru, en };

const noSubscription = () => () => {};
const browserLocale = () =>
  localeFromAcceptLanguage(
    (navigator.languages.length > 0 ? navigator.languages : [navigator.language]).join(","),
  );

export default function GlobalError({ error, retry }: { error: unknown; retry: () => void }) {
  const chosen = useSyncExternalStore(noSubscription, browserLocale, () => null);
  const locales: Locale[] = chosen ? [chosen] : ["ru", "en"];
  return (
    <html lang={locales[0]}>
      <body className="min-h-screen px-4 font-sans">
        <title>{`${locales.map((l) => catalogs[l].documentTitle).join(" · ")} · Paydesk`}</title>
        {locales.map((locale) => (
          <div key={locale} lang={locale}>
            <NextIntlClientProvider locale={locale} messages={{ errors: catalogs[locale] }} timeZone="UTC">
              <ErrorPanel error={error} retry={retry} />
            </NextIntlClientProvider>
          </div>
        ))}
      </body>
    </html>
  );
}
