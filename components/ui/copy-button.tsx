"use client";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { Button, type ButtonVariant } from "@/components/ui/button";

/** Copies a text to the clipboard; says so, or says to select it by hand when the browser refuses. */
export function CopyButton({
  text,
  label,
  variant = "secondary",
  failedText,
}: {
  text: string;
  label?: string;
  variant?: ButtonVariant;
  failedText?: string;
}) {
  const t = useTranslations("ui");
  const common = useTranslations("common");
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setState("copied");
    } catch {
      setState("failed");
    }
  };
  return (
    <span className="inline-flex items-center gap-2">
      <Button type="button" variant={variant} onClick={() => void copy()}>
        {label ?? common("copy")}
      </Button>
      {state !== "idle" && (
        <span role="status" className={`text-sm ${state === "copied" ? "text-emerald-700" : "text-red-700"}`}>
          {state === "copied" ? t("copied") : (failedText ?? t("copyFailed"))}
        </span>
      )}
    </span>
  );
}
