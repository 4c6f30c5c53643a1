import "server-only";
import PgBoss from "pg-boss";
import { getDatabaseUrl } from "@/lib/env";
import { jobs, type JobName } from "@/lib/jobs/schedules";

const globalForBoss = globalThis as unknown as { paydeskBoss?: Promise<PgBoss> };

/** A send-only pg-boss for the web server: it neither schedules nor supervises (the worker does). */
function sender(): Promise<PgBoss> {
  globalForBoss.paydeskBoss ??= (async () => {
    const boss = new PgBoss({
      connectionString: getDatabaseUrl(),
      schema: "pgboss",
      supervise: false,
      schedule: false,
      max: 2,
    });
    await boss.start();
    for (const job of Object.values(jobs))
      await boss.createQueue(job.queue, { name: job.queue, policy: "singleton" });
    return boss;
  })();
  return globalForBoss.paydeskBoss;
}

/** Queues a background job now (e.g. "run reconciliation now"); returns the job id, or null when one is already queued. */
export async function enqueueJob(name: JobName): Promise<string | null> {
  return (await sender()).send(jobs[name].queue, {});
}
