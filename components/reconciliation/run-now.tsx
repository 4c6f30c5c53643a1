"use client";
import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useState, useTransition } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { runReconciliationNowAction } from "@/lib/actions/reconcile";

export function RunNow() {
  const t = useTranslations("reconciliation.runNow");
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  const run = (kind: "incremental" | "full") =>
    startTransition(async () => {
      const r = await runReconciliationNowAction({ kind });
      if (!r.ok) return setResult({ ok: false, text: r.message });
      setResult({
        ok: true,
        text: r.queued ? t("queued", { kind }) : t("alreadyQueued", { kind }),
      });
      setTimeout(() => router.refresh(), 1500);
    });
  return (
    <div className="space-y-2">
      <div className="flex flex-wrap gap-2">
        <Button type="button" onClick={() => run("incremental")} disabled={pending}>
          {t("run")}
        </Button>
        <Button type="button" variant="secondary" onClick={() => run("full")} disabled={pending}>
          {t("runFull")}
        </Button>
        <Button type="button" variant="ghost" onClick={() => router.refresh()}>
          {t("reload")}
        </Button>
      </div>
      {result && <Alert tone={result.ok ? "success" : "error"}>{result.text}</Alert>}
    </div>
  );
}
