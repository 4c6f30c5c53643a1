// The queues of the background work: their names and schedules, shared by the senders (web server,
// domain code through lib/queue/enqueue.ts) and the worker (lib/jobs), which imports the domain.
// Background jobs and when they run (cron, UTC). Each queue is a pg-boss "stately" queue (setup.ts): at most one
// job of a kind is active across all workers and at most one waits behind it, so a "run now" pressed
// twice, or a schedule ticking while a long run is under way, queues one more run, not a pile of them
// (a "singleton" queue limits only the active ones). A worker killed mid-job leaves its job active, which
// blocks the queue until the job expires: each job's expiry is a few times its longest expected run, so a
// crash costs minutes, not the hour pg-boss would otherwise wait.
export const jobs = {
  reconcileIncremental: { queue: "reconcile-incremental", cron: "*/5 * * * *", expireInSeconds: 15 * 60 },
  reconcileFull: { queue: "reconcile-full", cron: "17 3 * * *", expireInSeconds: 3 * 3600 },
  balanceSnapshot: { queue: "balance-snapshot", cron: "* * * * *", expireInSeconds: 2 * 60 },
  stuckOperations: { queue: "stuck-operations", cron: "*/5 * * * *", expireInSeconds: 5 * 60 },
  pendingIntents: { queue: "pending-intents", cron: "* * * * *", expireInSeconds: 5 * 60 },
  submittingPayouts: { queue: "submitting-payouts", cron: "* * * * *", expireInSeconds: 5 * 60 },
  // Deletes platform call records and webhook bodies past their retention (lib/retention; 4 min a run).
  retention: { queue: "retention", cron: "23 * * * *", expireInSeconds: 10 * 60 },
  // Movements outside operations, superseded issued statements, last month's statement (lib/ledger).
  ledgerUpkeep: { queue: "ledger-upkeep", cron: "*/5 * * * *", expireInSeconds: 10 * 60 },
} as const;

/** How often pg-boss looks for expired jobs (and schedules): the delay before a dead worker's job is retried. */
export const MAINTENANCE_INTERVAL_SECONDS = 30;

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
