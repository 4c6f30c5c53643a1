"use client";
import { useTranslations } from "next-intl";
import { useReveal } from "@/components/recipients/use-reveal";
import { revealWebhookBodyAction } from "@/lib/actions/webhooks";
import { ScrollArea } from "@/components/ui/scroll-area";

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
  const title = numbersMasked && body === null ? t("rawMasked") : t("rawExact");
  return (
    <div className="space-y-2">
      <div className="flex flex-wrap items-baseline gap-3">
        <h2 className="text-lg font-semibold">{title}</h2>
        {controls(canReveal && numbersMasked)}
      </div>
      <ScrollArea
        label={title}
        className="max-h-[32rem] overflow-auto rounded bg-zinc-100 p-2 dark:bg-zinc-900"
      >
        <pre data-testid="raw-body" className="text-xs whitespace-pre-wrap break-all">
          {body ?? shown}
        </pre>
      </ScrollArea>
    </div>
  );
}
