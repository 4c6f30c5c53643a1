import "server-only";
import PgBoss from "pg-boss";
import { getDatabaseUrl, getEnv } from "@/lib/env";
import { jobHandlers, taskHandlers } from "@/lib/jobs/handlers";
import { jobs, MAINTENANCE_INTERVAL_SECONDS, tasks, type JobName, type TaskName } from "@/lib/queue/queues";
import { setUpQueues } from "@/lib/queue/setup";
import { getLog } from "@/lib/log";
import { getPlatformClient } from "@/lib/platform/from-env";
import { startProcessingLoops } from "@/lib/webhooks/processing-loops";

export type Worker = { stop: (timeoutMs?: number) => Promise<void>; boss: PgBoss };

// On-demand jobs (a pay-out to submit) are picked up within half a second, several at a time per
// worker, so one slow platform call does not hold up the next approval.
const TASK_POLL_SECONDS = 0.5;
const TASK_CONCURRENCY = 4;

/**
 * Runs the background work: scheduled jobs through pg-boss (stately queues, so several workers never
 * double up) and webhook processing, which drains the inbox table directly (rows are claimed with SKIP
 * LOCKED, so any number of workers can share it).
 */
export async function startWorker(options: { webhookLoops?: number } = {}): Promise<Worker> {
  const log = getLog().child({ component: "worker" });
  const platform = getPlatformClient();
  const boss = new PgBoss({
    connectionString: getDatabaseUrl(),
    schema: "pgboss",
    maintenanceIntervalSeconds: MAINTENANCE_INTERVAL_SECONDS,
  });
  boss.on("error", (error) => log.error({ err: error }, "pg-boss error"));
  await boss.start();

  const jobEntries = Object.entries(jobs) as [JobName, (typeof jobs)[JobName]][];
  const taskEntries = Object.entries(tasks) as [TaskName, (typeof tasks)[TaskName]][];
  await setUpQueues(boss, { asWorker: true });

  const stopping = new AbortController();
  const handlers = jobHandlers(platform, stopping.signal);
  for (const [name, job] of jobEntries) {
    await boss.work(job.queue, async () => {
      const started = Date.now();
      const result = await handlers[name]();
      log.info({ job: name, ms: Date.now() - started, result }, "job done");
    });
  }
  const onDemand = taskHandlers(platform);
  for (const [name, { queue }] of taskEntries) {
    for (let i = 0; i < TASK_CONCURRENCY; i++) {
      await boss.work(queue, { pollingIntervalSeconds: TASK_POLL_SECONDS }, async ([job]) => {
        if (!job) return;
        const started = Date.now();
        const result = await onDemand[name](job.data);
        log.info({ job: name, jobId: job.id, ms: Date.now() - started, result }, "job done");
      });
    }
  }

  // The mirror catches up at once after a start instead of waiting for the first schedule.
  await boss.send(jobs.reconcileIncremental.queue, {});

  const webhookLoops = startProcessingLoops(
    platform,
    options.webhookLoops ?? getEnv().WEBHOOK_PROCESSING_CONCURRENCY,
    (error) => log.error({ err: error }, "webhook processing failed"),
  );

  return {
    boss,
    // Both at once, from the signal: pg-boss stops fetching and gives the jobs in progress up to
    // timeoutMs, then marks them failed (retried by another worker; left active, a stately queue would
    // hold that job back until it expired, hours for the full reconciliation). Each webhook loop finishes
    // the delivery it is deciding and gives back the rest of its batch; a read-back still unanswered when
    // the process exits keeps its lease until that runs out.
    stop: async (timeoutMs = 20_000) => {
      stopping.abort();
      await Promise.all([webhookLoops.stop(), boss.stop({ graceful: true, wait: true, timeout: timeoutMs })]);
    },
  };
}
