"use client";
import "./globals.css";
import { ErrorPanel } from "@/components/errors/error-panel";

// The root layout itself failed: this replaces the whole document.
export default function GlobalError({ error, retry }: { error: unknown; retry: () => void }) {
  return (
    <html lang="en">
      <body className="min-h-screen px-4 font-sans">
        <title>Error · Paydesk</title>
        <ErrorPanel error={error} retry={retry} />
      </body>
    </html>
  );
}
