"use client";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { Button } from "@/components/ui/button";

/** Copies the redacted support bundle; the text stays visible below for browsers without clipboard access. */
export function CopyBundleButton({ bundle }: { bundle: string }) {
  const t = useTranslations("trace");
  const ui = useTranslations("ui");
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(bundle);
      setState("copied");
    } catch {
      setState("failed");
    }
  };
  return (
    <div className="space-y-2">
      <div className="flex items-center gap-2">
        <Button type="button" onClick={() => void copy()}>
          {t("copyBundle")}
        </Button>
        {state === "copied" && (
          <span role="status" className="text-sm text-emerald-700">
            {ui("copied")}
          </span>
        )}
        {state === "failed" && (
          <span role="status" className="text-sm text-red-700">
            {t("copyBundleFailed")}
          </span>
        )}
      </div>
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
