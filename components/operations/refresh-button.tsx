"use client";
import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { ActionButton, type ActionResult } from "@/components/ui/action-button";
import { refreshOperationAction } from "@/lib/actions/operations";

/** Reads the operation from the platform now and shows the outcome with the read's traceID. */
export function RefreshButton({ operationId }: { operationId: string }) {
  const t = useTranslations("operations.detail");
  const router = useRouter();
  const refresh = async (): Promise<ActionResult> => {
    const r = await refreshOperationAction({ id: operationId });
    if (!r.ok) {
      const trace = "traceID" in r && r.traceID ? ` traceID ${r.traceID}` : "";
      return { ok: false, text: `${r.message}${trace}` };
    }
    router.refresh();
    const outcome = t(`refreshOutcome.${r.outcome}`);
    return { ok: true, text: t("refreshed", { outcome, traceID: r.traceID ?? t("noTraceID") }) };
  };
  return (
    <ActionButton variant="secondary" label={t("refresh")} pendingLabel={t("refreshing")} act={refresh} />
  );
}
