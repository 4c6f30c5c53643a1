import Link from "next/link";
import { useLocale, useTranslations } from "next-intl";
import { statusLabel } from "@/components/operations/labels";
import { NoteText } from "@/components/ui/worded-note";
import { asWords } from "@/lib/i18n/worded-note";
import type { RetentionNote, WebhookItem } from "@/lib/operations/detail/operation-detail";
import { formatDateTime } from "@/lib/time/zone";
import { wordOutcome } from "@/lib/webhooks/outcome-notes";

/**
 * Webhook deliveries of an operation: duplicates, and the read-back that confirmed a final status. For
 * an operation older than the deliveries' retention, says that older ones are deleted: an empty list
 * then does not mean none was received, and a list with rows may be missing the earlier ones.
 */
export function WebhookDeliveries({
  webhooks,
  tz,
  retention,
}: {
  webhooks: WebhookItem[];
  tz: string;
  retention: RetentionNote;
}) {
  const t = useTranslations("operations.deliveries");
  const outcomes = useTranslations("webhooks.outcome");
  const names = useTranslations("statuses");
  const words = asWords(useTranslations());
  const locale = useLocale();
  const when = (iso: string) => `${formatDateTime(new Date(iso), tz, locale)} ${tz}`;
  const periods = { days: retention.days, longerDays: retention.longerDays };
  if (webhooks.length === 0) {
    return (
      <p className="text-sm text-zinc-500" data-testid="webhooks-empty">
        {retention.mayBeIncomplete ? t("emptyRetention", periods) : t("empty")}
      </p>
    );
  }
  const list = (
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
  if (!retention.mayBeIncomplete) return list;
  return (
    <div className="space-y-2">
      <p className="text-sm text-amber-700 dark:text-amber-300" data-testid="webhooks-retention">
        {t("incompleteRetention", periods)}
      </p>
      {list}
    </div>
  );
}
