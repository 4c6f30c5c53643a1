import type { Metadata } from "next";
import { headers } from "next/headers";
import { DocumentRequestIdProvider } from "@/components/errors/document-request-id";
import { REQUEST_ID_HEADER } from "@/lib/http/request-id";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Paydesk", template: "%s · Paydesk" },
  description: "Back-office for operations, balances and pay-outs.",
};

// Reading the request makes every page render per request, which the Content-Security-Policy needs:
// Next puts the nonce of each response (proxy.ts) on its scripts only when it renders the page.
export default async function RootLayout({ children }: { children: React.ReactNode }) {
  const requestId = (await headers()).get(REQUEST_ID_HEADER);
  return (
    <html lang="en">
      <body className="min-h-screen font-sans">
        <DocumentRequestIdProvider requestId={requestId}>{children}</DocumentRequestIdProvider>
      </body>
    </html>
  );
}
