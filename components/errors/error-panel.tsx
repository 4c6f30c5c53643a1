"use client";
import { useTranslations } from "next-intl";
import { useDocumentRequestId } from "@/components/errors/document-request-id";
import { Button } from "@/components/ui/button";
import { readErrorDigest } from "@/lib/errors/digest";

// The catalog's words (messages/<locale>/errors.json) for each kind of failure.
const messageKeys = { "database-unavailable": "databaseUnavailable", unexpected: "unexpected" } as const;

/** The body of every error boundary: what happened, the ids to quote to support, and a retry. */
export function ErrorPanel({ error, retry }: { error: unknown; retry: () => void }) {
  const t = useTranslations("errors");
  const digest = typeof error === "object" && error !== null && "digest" in error ? error.digest : undefined;
  const reference = readErrorDigest(digest);
  const documentRequestId = useDocumentRequestId();
  const requestId = reference.requestId ?? documentRequestId;
  const key = messageKeys[reference.kind];
  const title = t(`${key}.title`);
  const text = t(`${key}.text`);
  return (
    <section role="alert" data-testid="error-panel" className="mx-auto max-w-xl space-y-4 py-10">
      <h1 className="text-2xl font-semibold">{title}</h1>
      <p className="text-zinc-700 dark:text-zinc-300">{text}</p>
      {(requestId || reference.digest) && (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">{t("quoteToSupport")}</p>
      )}
      {(requestId || reference.digest) && (
        <dl className="space-y-1 rounded-md bg-zinc-100 px-3 py-2 text-sm dark:bg-zinc-900">
          {requestId && (
            <div className="flex flex-wrap gap-x-2">
              <dt className="text-zinc-500">{t("requestId")}</dt>
              <dd className="font-mono select-all" data-testid="error-request-id">
                {requestId}
              </dd>
            </div>
          )}
          {reference.digest && (
            <div className="flex flex-wrap gap-x-2">
              <dt className="text-zinc-500">{t("errorReference")}</dt>
              <dd className="font-mono select-all" data-testid="error-digest">
                {reference.digest}
              </dd>
            </div>
          )}
        </dl>
      )}
      <div className="flex gap-2">
        <Button onClick={retry}>{t("tryAgain")}</Button>
        {/* A full page load on purpose: the page's own client state may be what failed. */}
        {/* eslint-disable-next-line @next/next/no-html-link-for-pages */}
        <a
          href="/"
          className="inline-flex items-center rounded-md px-3 py-2 text-sm text-indigo-700 underline dark:text-indigo-300"
        >
          {t("backToConsole")}
        </a>
      </div>
    </section>
  );
}
