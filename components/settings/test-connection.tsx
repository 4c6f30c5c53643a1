"use client";
import { useTranslations } from "next-intl";
import { ActionButton, type ActionResult } from "@/components/ui/action-button";
import { testConnectionAction } from "@/lib/actions/settings";

/** Calls the platform with the configured token and shows the outcome, latency and traceID. */
export function TestConnection() {
  const t = useTranslations("settings.connection");
  const test = async (): Promise<ActionResult> => {
    const r = await testConnectionAction();
    if (!("latencyMs" in r)) return { ok: false, text: r.message };
    const traceID = r.traceID ?? t("noTrace");
    return r.ok
      ? { ok: true, text: t("connected", { ms: r.latencyMs, detail: r.detail, traceID }) }
      : { ok: false, text: t("failedAfter", { message: r.message, ms: r.latencyMs, traceID }) };
  };
  return (
    <ActionButton
      variant="secondary"
      label={t("test")}
      pendingLabel={t("testing")}
      act={test}
      resultTestId="connection-result"
    />
  );
}
