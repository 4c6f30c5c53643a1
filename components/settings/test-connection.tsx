"use client";
import { useTranslations } from "next-intl";
import { useState, useTransition } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { testConnectionAction } from "@/lib/actions/settings";

/** Calls the platform with the configured token and shows the outcome, latency and traceID. */
export function TestConnection() {
  const t = useTranslations("settings.connection");
  const [pending, startTransition] = useTransition();
  const [text, setText] = useState<{ ok: boolean; text: string } | null>(null);
  const run = () =>
    startTransition(async () => {
      const r = await testConnectionAction();
      if (!("latencyMs" in r)) return setText({ ok: false, text: r.message });
      const traceID = r.traceID ?? t("noTrace");
      setText(
        r.ok
          ? { ok: true, text: t("connected", { ms: r.latencyMs, detail: r.detail, traceID }) }
          : { ok: false, text: t("failedAfter", { message: r.message, ms: r.latencyMs, traceID }) },
      );
    });
  return (
    <div className="space-y-2">
      <Button type="button" variant="secondary" onClick={run} disabled={pending}>
        {pending ? t("testing") : t("test")}
      </Button>
      {text && (
        <Alert tone={text.ok ? "success" : "error"} testId="connection-result">
          {text.text}
        </Alert>
      )}
    </div>
  );
}
