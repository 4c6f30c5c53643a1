"use client";
import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useState, useTransition } from "react";
import { Button } from "@/components/ui/button";
import { refreshOperationAction } from "@/lib/actions/operations";

/** Reads the operation from the platform now and shows the outcome with the read's traceID. */
export function RefreshButton({ operationId }: { operationId: string }) {
  const t = useTranslations("operations.detail");
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  const refresh = () =>
    startTransition(async () => {
      const r = await refreshOperationAction({ id: operationId });
      if (r.ok) {
        const outcome = t(`refreshOutcome.${r.outcome}`);
        setResult({ ok: true, text: t("refreshed", { outcome, traceID: r.traceID ?? t("noTraceID") }) });
        router.refresh();
      } else {
        const trace = "traceID" in r && r.traceID ? ` traceID ${r.traceID}` : "";
        setResult({ ok: false, text: `${r.message}${trace}` });
      }
    });
  return (
    <div className="flex flex-wrap items-center gap-2">
      <Button type="button" variant="secondary" onClick={refresh} disabled={pending}>
        {pending ? t("refreshing") : t("refresh")}
      </Button>
      {result && (
        <p
          role="status"
          className={`text-sm ${result.ok ? "text-emerald-700 dark:text-emerald-300" : "text-red-700 dark:text-red-300"}`}
        >
          {result.text}
        </p>
      )}
    </div>
  );
}
