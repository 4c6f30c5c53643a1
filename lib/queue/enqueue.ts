import "server-only";
import PgBoss from "pg-boss";
import { getDatabaseUrl } from "@/lib/env";
import { getLog } from "@/lib/log";
import { jobs, tasks, type JobName, type TaskName } from "@/lib/queue/queues";
import { setUpQueues } from "@/lib/queue/setup";

const globalForBoss = globalThis as unknown as { paydeskBoss?: Promise<PgBoss> };

/** A send-only pg-boss for the web server: it neither schedules nor supervises (the worker does). */
function sender(): Promise<PgBoss> {
  if (globalForBoss.paydeskBoss) return globalForBoss.paydeskBoss;
  const starting = startSender();
  globalForBoss.paydeskBoss = starting;
  // A start that failed (the database down at the first job) is not kept: the next job tries again.
  starting.catch(() => {
    if (globalForBoss.paydeskBoss === starting) globalForBoss.paydeskBoss = undefined;
  });
  return starting;
}

async function startSender(): Promise<PgBoss> {
  const boss = new PgBoss({
    connectionString: getDatabaseUrl(),
    schema: "pgboss",
    supervise: false,
    schedule: false,
    max: 2,
  });
  // An idle connection's end (a database restart, a failover) is logged: unheard, pg-boss would throw
  // it at the web process. The pool opens a new connection for the next job queued.
  boss.on("error", (error) => getLog().error({ err: error }, "pg-boss error (job sender)"));
  try {
    await boss.start();
    await setUpQueues(boss, { asWorker: false });
    return boss;
  } catch (error) {
    await boss.stop({ graceful: false, wait: true }).catch(() => {});
    throw error;
  }
}

/** Stops this process's sender, if one started; the next job queued starts another (with the DATABASE_URL of then). */
export async function stopSender(): Promise<void> {
  const boss = globalForBoss.paydeskBoss;
  globalForBoss.paydeskBoss = undefined;
  const started = await boss?.catch(() => null); // a failed start left nothing running
  await started?.stop({ graceful: false, wait: true });
}

/** Queues a background job now (e.g. "run reconciliation now"); returns the job id, or null when one is already queued. */
export async function enqueueJob(name: JobName): Promise<string | null> {
  return (await sender()).send(jobs[name].queue, {});
}

/**
 * Queues an on-demand job with its payload for the worker (e.g. "submit this approved pay-out"); returns
 * the job id, or null when a job with the same key is already waiting (it covers this one).
 */
export async function enqueueTask(
  name: TaskName,
  data: object,
  options: { singletonKey?: string } = {},
): Promise<string | null> {
  const { queue, policy: _policy, ...retry } = tasks[name];
  return (await sender()).send(queue, data, { ...retry, ...options });
}
