import type { OperationStatus } from "@/lib/platform/schemas";

const styles: Record<OperationStatus, string> = {
  precreated: "bg-zinc-100 text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300",
  created: "bg-sky-100 text-sky-800 dark:bg-sky-900/40 dark:text-sky-200",
  booking: "bg-violet-100 text-violet-800 dark:bg-violet-900/40 dark:text-violet-200",
  pending_retry: "bg-amber-100 text-amber-900 dark:bg-amber-900/40 dark:text-amber-200",
  in_progress: "bg-indigo-100 text-indigo-800 dark:bg-indigo-900/40 dark:text-indigo-200",
  success: "bg-emerald-100 text-emerald-800 dark:bg-emerald-900/40 dark:text-emerald-200",
  failed: "bg-red-100 text-red-800 dark:bg-red-900/40 dark:text-red-200",
};

export function StatusBadge({ status }: { status: OperationStatus }) {
  return (
    <span
      data-testid="status-badge"
      className={`inline-block whitespace-nowrap rounded px-2 py-0.5 text-xs font-medium ${styles[status]}`}
    >
      {status}
    </span>
  );
}
