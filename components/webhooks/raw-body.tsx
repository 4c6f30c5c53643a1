"use client";
import { useTranslations } from "next-intl";
import { useReveal } from "@/components/recipients/use-reveal";
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
  const { revealed: body, controls } = useReveal(
    () => revealWebhookBodyAction({ id }),
    (r) => r.body,
    { reveal: t("reveal"), revealTitle: t("revealTitle") },
  );
  return (
    <div className="space-y-2">
      <div className="flex flex-wrap items-baseline gap-3">
        <h2 className="text-lg font-semibold">
          {numbersMasked && body === null ? t("rawMasked") : t("rawExact")}
        </h2>
        {controls(canReveal && numbersMasked)}
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
