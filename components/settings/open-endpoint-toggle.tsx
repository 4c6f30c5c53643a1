"use client";
import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useState, useTransition } from "react";
import { useStepUp } from "@/components/auth/two-factor/step-up";
import { Button } from "@/components/ui/button";
import { saveSettingAction } from "@/lib/actions/settings";

/** Switches between requiring the webhook's secret path segment and accepting webhooks without it. */
export function OpenEndpointToggle({ open }: { open: boolean }) {
  const t = useTranslations("settings.webhooks");
  const router = useRouter();
  const withStepUp = useStepUp();
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<string | null>(null);
  const toggle = () =>
    startTransition(async () => {
      const r = await withStepUp(() => saveSettingAction({ key: "webhookOpenEndpoint", value: !open }));
      if (r.ok) {
        setError(null);
        router.refresh();
      } else {
        setError(r.message);
      }
    });
  return (
    <div className="space-y-1" data-testid="open-endpoint">
      <Button type="button" variant="secondary" onClick={toggle} disabled={pending}>
        {open ? t("requireSecret") : t("acceptWithoutSecret")}
      </Button>
      {error && <p className="text-sm text-red-600 dark:text-red-400">{error}</p>}
    </div>
  );
}
