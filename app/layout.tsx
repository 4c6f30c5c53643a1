import type { Metadata } from "next";
import { headers } from "next/headers";
import { NextIntlClientProvider } from "next-intl";
import { getLocale, getTranslations } from "next-intl/server";
import { DocumentRequestIdProvider } from "@/components/errors/document-request-id";
import { REQUEST_ID_HEADER } from "@/lib/http/request-id";
import "./globals.css";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("shell");
  return { title: { default: "Paydesk", template: "%s · Paydesk" }, description: t("description") };
}

// Reading the request makes every page render per request, which the Content-Security-Policy needs:
// Next puts the nonce of each response (proxy.ts) on its scripts only when it renders the page.
export default async function RootLayout({ children }: { children: React.ReactNode }) {
  const requestId = (await headers()).get(REQUEST_ID_HEADER);
  const locale = await getLocale();
  return (
    <html lang={locale}>
      <body className="min-h-screen font-sans">
        <NextIntlClientProvider>
          <DocumentRequestIdProvider requestId={requestId}>{children}</DocumentRequestIdProvider>
        </NextIntlClientProvider>
      </body>
    </html>
  );
}
