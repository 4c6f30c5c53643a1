import type { Metadata } from "next";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Paydesk", template: "%s · Paydesk" },
  description: "Back-office for operations, balances and pay-outs.",
};

export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-screen font-sans">{children}</body>
    </html>
  );
}
