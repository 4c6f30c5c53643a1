// Background jobs and when they run (cron, UTC). Each queue is a pg-boss "singleton" queue: at most one
// job of a kind is active across all workers.
export const jobs = {
  reconcileIncremental: { queue: "reconcile-incremental", cron: "*/5 * * * *" },
  reconcileFull: { queue: "reconcile-full", cron: "17 3 * * *" },
  balanceSnapshot: { queue: "balance-snapshot", cron: "* * * * *" },
  stuckOperations: { queue: "stuck-operations", cron: "*/5 * * * *" },
  pendingIntents: { queue: "pending-intents", cron: "* * * * *" },
  submittingPayouts: { queue: "submitting-payouts", cron: "* * * * *" },
} as const;

export type JobName = keyof typeof jobs;
