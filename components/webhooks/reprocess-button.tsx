"use client";
import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useState, useTransition } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { reprocessWebhookAction } from "@/lib/actions/webhooks";

export function ReprocessButton({ id }: { id: string }) {
  const t = useTranslations("webhooks");
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  const run = () =>
    startTransition(async () => {
      const r = await reprocessWebhookAction({ id });
      setResult(
        r.ok
          ? { ok: true, text: t("reprocess.queued", { outcome: t(`outcome.${r.previousOutcome}`) }) }
          : { ok: false, text: r.message },
      );
      if (r.ok) router.refresh();
    });
  return (
    <div className="space-y-2">
      <Button type="button" onClick={run} disabled={pending}>
        {pending ? t("reprocess.queuing") : t("reprocess.button")}
      </Button>
      {result && <Alert tone={result.ok ? "success" : "error"}>{result.text}</Alert>}
    </div>
  );
}
