import Link from "next/link";
import type { WebhookItem } from "@/lib/operations/detail/operation-detail";
import { formatInZone } from "@/lib/time/zone";

/** Webhook deliveries of an operation: duplicates, and the read-back that confirmed a final status. */
export function WebhookDeliveries({ webhooks, tz }: { webhooks: WebhookItem[]; tz: string }) {
  if (webhooks.length === 0) return <p className="text-sm text-zinc-500">No webhooks received.</p>;
  return (
    <ul className="space-y-2 text-sm" data-testid="webhooks">
      {webhooks.map((w) => (
        <li key={w.id} className="rounded-md border border-zinc-200 p-2 dark:border-zinc-800">
          <span className="whitespace-nowrap">{formatInZone(new Date(w.receivedAt), tz)}</span> · #{w.id} ·{" "}
          {w.operationStatus ?? "?"} · <strong>{w.outcome === "duplicate" ? "duplicate" : w.outcome}</strong>
          {w.outcomeDetail && <span className="block text-xs text-zinc-500">{w.outcomeDetail}</span>}
          {w.readBackTraceID && (
            <span className="block text-xs">
              confirmed by read-back{" "}
              <Link
                href={`/trace?q=${encodeURIComponent(w.readBackTraceID)}`}
                className="font-mono underline"
              >
                {w.readBackTraceID}
              </Link>
            </span>
          )}
        </li>
      ))}
    </ul>
  );
}
