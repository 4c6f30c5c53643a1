"use client";
import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { ResultAlert, useActionResult } from "@/components/ui/action-button";
import { Button } from "@/components/ui/button";
import { runReconciliationNowAction } from "@/lib/actions/reconcile";

export function RunNow() {
  const t = useTranslations("reconciliation.runNow");
  const router = useRouter();
  const { pending, result, run } = useActionResult();
  const runKind = (kind: "incremental" | "full") =>
    run(async () => {
      const r = await runReconciliationNowAction({ kind });
      if (!r.ok) return { ok: false, text: r.message };
      setTimeout(() => router.refresh(), 1500);
      return { ok: true, text: r.queued ? t("queued", { kind }) : t("alreadyQueued", { kind }) };
    });
  return (
    <div className="space-y-2">
      <div className="flex flex-wrap gap-2">
        <Button type="button" onClick={() => runKind("incremental")} disabled={pending}>
          {t("run")}
        </Button>
        <Button type="button" variant="secondary" onClick={() => runKind("full")} disabled={pending}>
          {t("runFull")}
        </Button>
        <Button type="button" variant="ghost" onClick={() => router.refresh()}>
          {t("reload")}
        </Button>
      </div>
      {result && <ResultAlert result={result} />}
    </div>
  );
}
