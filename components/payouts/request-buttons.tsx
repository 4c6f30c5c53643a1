"use client";
import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useState, useTransition } from "react";
import { useStepUp } from "@/components/auth/two-factor/step-up";
import { PlatformErrorNotice } from "@/components/payouts/platform-error";
import { Button } from "@/components/ui/button";
import { cancelPayoutAction, submitPayoutAction } from "@/lib/actions/payouts";
import type { ExplainedError } from "@/lib/payouts/errors";

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
  const t = useTranslations("payouts.buttons");
  const withStepUp = useStepUp();
  const [pending, startTransition] = useTransition();
  const [message, setMessage] = useState<string | null>(null);
  const [refusal, setRefusal] = useState<ExplainedError | null>(null);
  if (!canCancel && !canSubmit) return null;

  const run = (kind: "cancel" | "submit") =>
    startTransition(async () => {
      setMessage(null);
      setRefusal(null);
      const r =
        kind === "cancel"
          ? await cancelPayoutAction({ id: payoutId })
          : await withStepUp(() => submitPayoutAction({ id: payoutId }));
      if (!r.ok) {
        if ("error" in r) setRefusal(r.error);
        else setMessage(r.message);
      } else if ("message" in r) {
        setMessage(r.message);
      }
      router.refresh();
    });

  return (
    <div className="flex flex-wrap items-center gap-2">
      {canSubmit && (
        <Button type="button" onClick={() => run("submit")} disabled={pending}>
          {t("send")}
        </Button>
      )}
      {canCancel && (
        <Button type="button" variant="secondary" onClick={() => run("cancel")} disabled={pending}>
          {t("cancel")}
        </Button>
      )}
      {message && (
        <p role="status" className="text-sm text-red-700 dark:text-red-300">
          {message}
        </p>
      )}
      {refusal && <PlatformErrorNotice error={refusal} />}
    </div>
  );
}
