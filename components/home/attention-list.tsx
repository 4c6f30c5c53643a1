import Link from "next/link";
import { useLocale, useTranslations } from "next-intl";
import type { Attention } from "@/lib/home/attention";
import { formatDuration } from "@/lib/time/zone";

/** A count, how long ago something happened, or that there is nothing (worded by AttentionList). */
export type AttentionValue = { count: number } | { agoMs: number } | { none: "never" | "noneWaiting" };

export type AttentionItem = {
  key: string;
  /** The item's title in the catalogs (home.item.<label>). */
  label:
    | "approvals"
    | "payoutsUnanswered"
    | "creationsUnanswered"
    | "stuck"
    | "webhookFailures"
    | "webhookOldest"
    | "reconciliation"
    | "drift";
  value: AttentionValue;
  /** True when the item needs someone now (shown highlighted). */
  alert: boolean;
  href: string;
};

// A reconciliation older than this is flagged (the incremental run is scheduled every 5 minutes).
const RECONCILIATION_STALE_MS = 2 * 60 * 60_000;
const WEBHOOK_LAG_MS = 5 * 60_000;

/** An item that counts things waiting: it needs someone when there is at least one. */
const counted = (key: string, label: AttentionItem["label"], count: number, href: string): AttentionItem => ({
  key,
  label,
  value: { count },
  alert: count > 0,
  href,
});

/** The items of the home page, for the sections the role may open. */
export function attentionItems(
  a: Attention,
  may: { payouts: boolean; operations: boolean; webhooks: boolean; reconciliation: boolean },
  now = new Date(),
): AttentionItem[] {
  const items: AttentionItem[] = [];
  const ago = (iso: string) => now.getTime() - new Date(iso).getTime();
  if (may.payouts) {
    items.push(counted("approvals", "approvals", a.approvalsWaiting, "/payouts"));
    // Shown only when there are some: a pay-out in that state is rare, and each needs a person.
    if (a.payoutsUnanswered > 0)
      items.push(
        counted("payouts-unanswered", "payoutsUnanswered", a.payoutsUnanswered, "/payouts?status=submitting"),
      );
  }
  if (may.operations) items.push(counted("stuck", "stuck", a.stuckOperations, "/operations?stuck=1"));
  if (may.webhooks) {
    items.push(
      counted("webhook-failures", "webhookFailures", a.webhookFailures24h, "/webhooks?outcome=failed"),
    );
    items.push({
      key: "webhook-oldest",
      label: "webhookOldest",
      value: a.oldestUnprocessedWebhookAt
        ? { agoMs: ago(a.oldestUnprocessedWebhookAt) }
        : { none: "noneWaiting" },
      alert: a.oldestUnprocessedWebhookAt !== null && ago(a.oldestUnprocessedWebhookAt) > WEBHOOK_LAG_MS,
      href: "/webhooks?outcome=received",
    });
  }
  if (may.reconciliation) {
    items.push({
      key: "reconciliation",
      label: "reconciliation",
      value: a.lastCompleteReconciliationAt
        ? { agoMs: ago(a.lastCompleteReconciliationAt) }
        : { none: "never" },
      alert:
        a.lastCompleteReconciliationAt === null ||
        ago(a.lastCompleteReconciliationAt) > RECONCILIATION_STALE_MS,
      href: "/reconciliation",
    });
    items.push(counted("drift", "drift", a.openDriftItems, "/reconciliation?state=open"));
    if (a.creationsUnanswered > 0)
      items.push(
        counted(
          "creations-unanswered",
          "creationsUnanswered",
          a.creationsUnanswered,
          "/reconciliation#unanswered",
        ),
      );
  }
  return items;
}

export function AttentionList({ items }: { items: AttentionItem[] }) {
  const t = useTranslations("home");
  const common = useTranslations("common");
  const locale = useLocale();
  if (items.length === 0) return null;
  const valueText = (value: AttentionValue) =>
    "count" in value
      ? String(value.count)
      : "agoMs" in value
        ? common("ago", { duration: formatDuration(value.agoMs, locale) })
        : t(value.none);
  return (
    <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3" aria-label={t("needsAttention")}>
      {items.map((item) => (
        <li key={item.key} data-testid={`attention-${item.key}`} data-alert={item.alert}>
          <Link
            href={item.href}
            className={`block rounded-lg border p-4 hover:bg-zinc-50 dark:hover:bg-zinc-800 ${
              item.alert
                ? "border-amber-400 bg-amber-50/50 dark:border-amber-600 dark:bg-amber-950/30"
                : "border-zinc-200 dark:border-zinc-800"
            }`}
          >
            <span className="block text-sm text-zinc-600 dark:text-zinc-400">{t(`item.${item.label}`)}</span>
            <span className="mt-1 block text-2xl font-semibold">{valueText(item.value)}</span>
          </Link>
        </li>
      ))}
    </ul>
  );
}
