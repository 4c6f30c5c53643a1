import type { WebhookOutcome } from "@/lib/generated/prisma/enums";

const styles: Record<WebhookOutcome, string> = {
  received: "bg-sky-100 text-sky-800 dark:bg-sky-900/40 dark:text-sky-200",
  applied: "bg-emerald-100 text-emerald-800 dark:bg-emerald-900/40 dark:text-emerald-200",
  duplicate: "bg-zinc-100 text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300",
  stale: "bg-zinc-100 text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300",
  rejected: "bg-red-100 text-red-800 dark:bg-red-900/40 dark:text-red-200",
  malformed: "bg-red-100 text-red-800 dark:bg-red-900/40 dark:text-red-200",
  disagreement: "bg-amber-100 text-amber-900 dark:bg-amber-900/40 dark:text-amber-200",
  failed: "bg-red-100 text-red-800 dark:bg-red-900/40 dark:text-red-200",
};

export function OutcomeBadge({ outcome }: { outcome: WebhookOutcome }) {
  return (
    <span
      data-testid="outcome-badge"
      className={`inline-block whitespace-nowrap rounded px-2 py-0.5 text-xs font-medium ${styles[outcome]}`}
    >
      {outcome}
    </span>
  );
}
