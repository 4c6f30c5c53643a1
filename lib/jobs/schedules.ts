// Background jobs and when they run (cron, UTC). Each queue is a pg-boss "singleton" queue: at most one
// job of a kind is active across all workers.
export const jobs = {
  reconcileIncremental: { queue: "reconcile-incremental", cron: "*/5 * * * *" },
  reconcileFull: { queue: "reconcile-full", cron: "17 3 * * *" },
  balanceSnapshot: { queue: "balance-snapshot", cron: "* * * * *" },
  stuckOperations: { queue: "stuck-operations", cron: "*/5 * * * *" },
  pendingIntents: { queue: "pending-intents", cron: "* * * * *" },
  submittingPayouts: { queue: "submitting-payouts", cron: "* * * * *" },
  // Deletes platform call records and webhook bodies past their retention (lib/retention).
  retention: { queue: "retention", cron: "23 * * * *" },
} as const;

export type JobName = keyof typeof jobs;

// Jobs sent on demand with a payload (not on a schedule), with their queue's options. A "short" queue
// keeps at most one waiting job per singletonKey: handing the same pay-out off twice while its job waits
// queues it once. Retries cover a worker that failed on the database; the sweep covers the rest.
export const tasks = {
  submitPayout: {
    queue: "submit-payout",
    policy: "short",
    retryLimit: 3,
    retryDelay: 10,
    expireInSeconds: 600,
  },
} as const;

export type TaskName = keyof typeof tasks;
