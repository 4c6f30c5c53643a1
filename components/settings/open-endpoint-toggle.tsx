"use client";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { useStepUp } from "@/components/auth/two-factor/step-up";
import { Button } from "@/components/ui/button";
import { saveSettingAction } from "@/lib/settings/actions";

/** Switches between requiring the webhook's secret path segment and accepting webhooks without it. */
export function OpenEndpointToggle({ open }: { open: boolean }) {
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
        {open ? "Require the secret path segment" : "Accept webhooks without the secret path segment"}
      </Button>
      {error && <p className="text-sm text-red-600 dark:text-red-400">{error}</p>}
    </div>
  );
}
