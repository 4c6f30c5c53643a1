import Link from "next/link";
import { useLocale, useTranslations } from "next-intl";
import { statusLabel } from "@/components/operations/labels";
import { NoteText } from "@/components/ui/worded-note";
import { asWords } from "@/lib/i18n/worded-note";
import type { WebhookItem } from "@/lib/operations/detail/operation-detail";
import { formatDateTime } from "@/lib/time/zone";
import { wordOutcome } from "@/lib/webhooks/outcome-notes";

/** Webhook deliveries of an operation: duplicates, and the read-back that confirmed a final status. */
export function WebhookDeliveries({ webhooks, tz }: { webhooks: WebhookItem[]; tz: string }) {
  const t = useTranslations("operations.deliveries");
  const outcomes = useTranslations("webhooks.outcome");
  const names = useTranslations("statuses");
  const words = asWords(useTranslations());
  const locale = useLocale();
  const when = (iso: string) => `${formatDateTime(new Date(iso), tz, locale)} ${tz}`;
  if (webhooks.length === 0) return <p className="text-sm text-zinc-500">{t("empty")}</p>;
  return (
    <ul className="space-y-2 text-sm" data-testid="webhooks">
      {webhooks.map((w) => {
        const note = wordOutcome(words, w, when);
        return (
          <li key={w.id} className="rounded-md border border-zinc-200 p-2 dark:border-zinc-800">
            <span className="whitespace-nowrap">{formatDateTime(new Date(w.receivedAt), tz, locale)}</span> ·
            #{w.id} · {w.operationStatus ? statusLabel(names, w.operationStatus) : "?"} ·{" "}
            <strong>{outcomes(w.outcome)}</strong>
            {note && (
              <span className="block text-xs text-zinc-500" data-testid="webhook-note">
                <NoteText note={note} />
              </span>
            )}
            {w.readBackTraceID && (
              <span className="block text-xs">
                {t("confirmedBy")}{" "}
                <Link
                  href={`/trace?q=${encodeURIComponent(w.readBackTraceID)}`}
                  className="font-mono underline"
                >
                  {w.readBackTraceID}
                </Link>
              </span>
            )}
          </li>
        );
      })}
    </ul>
  );
}
