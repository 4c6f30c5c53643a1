import { STATUS_LABELS, type PayoutRequestStatus } from "@/lib/payouts/state";

const styles: Record<PayoutRequestStatus, string> = {
  draft: "bg-zinc-100 text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300",
  awaiting_approval: "bg-amber-100 text-amber-900 dark:bg-amber-900/40 dark:text-amber-200",
  approved: "bg-sky-100 text-sky-800 dark:bg-sky-900/40 dark:text-sky-200",
  submitting: "bg-indigo-100 text-indigo-800 dark:bg-indigo-900/40 dark:text-indigo-200",
  submitted: "bg-emerald-100 text-emerald-800 dark:bg-emerald-900/40 dark:text-emerald-200",
  rejected: "bg-red-100 text-red-800 dark:bg-red-900/40 dark:text-red-200",
  cancelled: "bg-zinc-200 text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300",
  failed_to_submit: "bg-red-100 text-red-800 dark:bg-red-900/40 dark:text-red-200",
};

export function PayoutStatusBadge({ status }: { status: PayoutRequestStatus }) {
  return (
    <span
      data-testid="payout-status"
      className={`inline-block whitespace-nowrap rounded px-2 py-0.5 text-xs font-medium ${styles[status]}`}
    >
      {STATUS_LABELS[status]}
    </span>
  );
}
