"use client";
import { useTranslations } from "next-intl";
import { CopyButton } from "@/components/ui/copy-button";

/** Copies the redacted support bundle; the text stays visible below for browsers without clipboard access. */
export function CopyBundleButton({ bundle }: { bundle: string }) {
  const t = useTranslations("trace");
  return (
    <div className="space-y-2">
      <CopyButton
        text={bundle}
        label={t("copyBundle")}
        variant="primary"
        failedText={t("copyBundleFailed")}
      />
      <details>
        <summary className="cursor-pointer text-sm">{t("bundleText")}</summary>
        <textarea
          readOnly
          value={bundle}
          aria-label={t("bundle")}
          data-testid="support-bundle"
          className="mt-2 h-64 w-full rounded border border-zinc-300 bg-zinc-50 p-2 font-mono text-xs dark:border-zinc-700 dark:bg-zinc-950"
        />
      </details>
    </div>
  );
}
