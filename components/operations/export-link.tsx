"use client";
import { useTranslations } from "next-intl";
import { useState } from "react";

type HeaderChoice = "machine" | "language";

/**
 * The CSV export of the current filter. Its header row is the field names (what scripts read, the
 * default) or the column titles in the reader's language, chosen here at export time.
 */
export function ExportLink({ query }: { query: string }) {
  const t = useTranslations("operations.export");
  const [header, setHeader] = useState<HeaderChoice>("machine");
  const params = new URLSearchParams(query);
  if (header === "language") params.set("header", "language");
  const href = `/api/exports/operations${params.size ? `?${params.toString()}` : ""}`;
  return (
    <span className="flex flex-wrap items-center gap-2">
      <select
        aria-label={t("headers")}
        value={header}
        onChange={(e) => setHeader(e.target.value === "language" ? "language" : "machine")}
        className="rounded-md border border-zinc-300 bg-white px-2 py-2 text-sm dark:border-zinc-700 dark:bg-zinc-900"
        data-testid="export-header"
      >
        <option value="machine">{t("headersMachine")}</option>
        <option value="language">{t("headersLanguage")}</option>
      </select>
      <a
        href={href}
        className="rounded-md border border-zinc-300 px-3 py-2 text-sm hover:bg-zinc-100 dark:border-zinc-700 dark:hover:bg-zinc-800"
        download
      >
        {t("button")}
      </a>
    </span>
  );
}
