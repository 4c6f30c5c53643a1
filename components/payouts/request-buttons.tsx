"use client";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { Button } from "@/components/ui/button";
import { cancelPayoutAction, submitPayoutAction } from "@/lib/actions/payouts";

/** Cancel (maker or admin, before sending) and Send (an approved request that was not sent yet). */
export function RequestButtons({
  payoutId,
  canCancel,
  canSubmit,
}: {
  payoutId: string;
  canCancel: boolean;
  canSubmit: boolean;
}) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [message, setMessage] = useState<string | null>(null);
  if (!canCancel && !canSubmit) return null;

  const run = (kind: "cancel" | "submit") =>
    startTransition(async () => {
      setMessage(null);
      const r =
        kind === "cancel"
          ? await cancelPayoutAction({ id: payoutId })
          : await submitPayoutAction({ id: payoutId });
      if (!r.ok) {
        setMessage("error" in r ? `${r.error.message} traceID ${r.error.traceID ?? "none"}` : r.message);
      } else if ("message" in r) {
        setMessage(r.message);
      }
      router.refresh();
    });

  return (
    <div className="flex flex-wrap items-center gap-2">
      {canSubmit && (
        <Button type="button" onClick={() => run("submit")} disabled={pending}>
          Send to the platform
        </Button>
      )}
      {canCancel && (
        <Button type="button" variant="secondary" onClick={() => run("cancel")} disabled={pending}>
          Cancel request
        </Button>
      )}
      {message && (
        <p role="status" className="text-sm text-red-700 dark:text-red-300">
          {message}
        </p>
      )}
    </div>
  );
}
