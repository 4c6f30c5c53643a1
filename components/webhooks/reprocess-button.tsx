"use client";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { reprocessWebhookAction } from "@/lib/actions/webhooks";

export function ReprocessButton({ id }: { id: string }) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  const run = () =>
    startTransition(async () => {
      const r = await reprocessWebhookAction({ id });
      setResult(
        r.ok
          ? { ok: true, text: `Queued again (was ${r.previousOutcome}); the worker decides it shortly.` }
          : { ok: false, text: r.message },
      );
      if (r.ok) router.refresh();
    });
  return (
    <div className="space-y-2">
      <Button type="button" onClick={run} disabled={pending}>
        {pending ? "Queuing…" : "Process again"}
      </Button>
      {result && <Alert tone={result.ok ? "success" : "error"}>{result.text}</Alert>}
    </div>
  );
}
