"use client";
import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useState, useTransition } from "react";
import { Button } from "@/components/ui/button";
import { resetUserTwoFactorAction } from "@/lib/actions/two-factor";
import { useStepUp } from "./step-up";

/** An admin resets a user's second factor (a lost phone): the user's sessions end; audited. */
export function ResetTwoFactorButton({ userId, email }: { userId: string; email: string }) {
  const t = useTranslations("twoFactor.reset");
  const router = useRouter();
  const withStepUp = useStepUp();
  const [pending, startTransition] = useTransition();
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const reset = () => {
    if (!window.confirm(t("confirm", { email }))) return;
    startTransition(async () => {
      const r = await withStepUp(() => resetUserTwoFactorAction({ userId }));
      setMessage(r.ok ? { ok: true, text: t("done") } : { ok: false, text: r.message });
      if (r.ok) router.refresh();
    });
  };
  return (
    <span className="inline-flex flex-col">
      <Button type="button" variant="secondary" disabled={pending} onClick={reset}>
        {t("button")}
      </Button>
      {message && (
        <span
          role={message.ok ? "status" : "alert"}
          className={`mt-1 text-xs ${message.ok ? "text-emerald-700" : "text-red-700"}`}
        >
          {message.text}
        </span>
      )}
    </span>
  );
}
