import "server-only";
import type PgBoss from "pg-boss";
import { withSessionAdvisoryLock } from "@/lib/db-session-lock";
import { jobs, tasks, type JobName } from "@/lib/queue/queues";

// Held while a process creates the queues: pg-boss creates a table per queue, and two processes doing
// that at once on a fresh database deadlock (seen starting a Procfile with worker=2).
const SETUP_LOCK = 7_370_002;

/** A job's queue as created by every process that may be first to touch it (worker or sender). */
function jobQueueOptions(name: JobName) {
  const { queue, expireInSeconds } = jobs[name];
  return { name: queue, policy: "stately", retryLimit: 2, expireInSeconds } as const;
}

/**
 * Creates every queue that does not exist yet. The worker (`asWorker`) also brings existing job queues
 * to today's options (createQueue leaves an existing queue as it was: an older install's) and schedules
 * the jobs.
 */
export async function setUpQueues(boss: PgBoss, options: { asWorker: boolean }): Promise<void> {
  await withSessionAdvisoryLock(SETUP_LOCK, { wait: true, purpose: "queue setup" }, async () => {
    for (const name of Object.keys(jobs) as JobName[]) {
      const queue = jobQueueOptions(name);
      await boss.createQueue(queue.name, queue);
      if (!options.asWorker) continue;
      await boss.updateQueue(queue.name, queue);
      await boss.schedule(queue.name, jobs[name].cron, {}, { tz: "UTC" });
    }
    for (const { queue, ...taskOptions } of Object.values(tasks))
      await boss.createQueue(queue, { name: queue, ...taskOptions });
  });
}
