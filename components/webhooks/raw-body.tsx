"use client";
import { useTranslations } from "next-intl";
import { useState, useTransition } from "react";
import { useStepUp } from "@/components/auth/two-factor/step-up";
import { revealWebhookBodyAction } from "@/lib/actions/webhooks";

/**
 * The raw body with recipient numbers masked, and a Reveal button for roles that may see them
 * (each reveal is audited), as the operation page does for the recipient number.
 */
export function RawBody({
  id,
  body: shown,
  numbersMasked,
  canReveal,
}: {
  id: string;
  body: string;
  numbersMasked: boolean;
  canReveal: boolean;
}) {
  const t = useTranslations("webhooks.delivery");
  const [pending, startTransition] = useTransition();
  const withStepUp = useStepUp();
  const [body, setBody] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const reveal = () =>
    startTransition(async () => {
      const r = await withStepUp(() => revealWebhookBodyAction({ id }));
      if (r.ok) setBody(r.body);
      else setError(r.message);
    });
  return (
    <div className="space-y-2">
      <div className="flex flex-wrap items-baseline gap-3">
        <h2 className="text-lg font-semibold">
          {numbersMasked && body === null ? t("rawMasked") : t("rawExact")}
        </h2>
        {canReveal && numbersMasked && body === null && (
          <button
            type="button"
            onClick={reveal}
            disabled={pending}
            className="text-sm text-indigo-700 underline dark:text-indigo-300"
            title={t("revealTitle")}
          >
            {t("reveal")}
          </button>
        )}
        {error && (
          <span role="alert" className="text-sm text-red-600">
            {error}
          </span>
        )}
      </div>
      <pre
        data-testid="raw-body"
        className="max-h-[32rem] overflow-auto rounded bg-zinc-100 p-2 text-xs whitespace-pre-wrap break-all dark:bg-zinc-900"
      >
        {body ?? shown}
      </pre>
    </div>
  );
}
