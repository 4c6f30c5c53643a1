// Several workers starting at the same moment on a fresh database (a Procfile with worker=2, a rolling
// restart): each creates pg-boss's queues and schedules; without the setup lock they deadlock and the
// loser exits.
import PgBoss from "pg-boss";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { enqueueJob, stopSender } from "@/lib/queue/enqueue";
import { jobs } from "@/lib/queue/queues";
import { startWorker, type Worker } from "@/lib/jobs/worker";
import { isolateDatabase } from "../../support/database";

let restore: () => Promise<void>;
beforeAll(async () => {
  restore = await isolateDatabase();
});
afterAll(async () => {
  await stopSender();
  await restore();
});

describe("worker start-up", () => {
  it("four workers and a sender started at once all start, with each job's expiry and policy", async () => {
    // An install from before the queues were stately has one of them as a singleton queue.
    const old = new PgBoss({ connectionString: process.env.DATABASE_URL!, schema: "pgboss" });
    await old.start();
    await old.createQueue(jobs.reconcileFull.queue, { name: jobs.reconcileFull.queue, policy: "singleton" });
    await old.stop({ graceful: false, wait: true });
    // A web process queues its first job meanwhile: its sender sets up the queues under the same lock.
    const sent = enqueueJob("reconcileFull");
    const results = await Promise.allSettled(
      Array.from({ length: 4 }, () => startWorker({ webhookLoops: 0 })),
    );
    expect(await sent).toEqual(expect.any(String));
    const started = results.flatMap((r) => (r.status === "fulfilled" ? [r.value] : []));
    await Promise.all(started.map((w: Worker) => w.stop(1_000)));
    expect(
      results.filter((r) => r.status === "rejected").map((r) => String((r as PromiseRejectedResult).reason)),
    ).toEqual([]);
    const queues = await getDb().$queryRawUnsafe<{ name: string; expire_seconds: number; policy: string }[]>(
      `SELECT name, expire_seconds, policy FROM pgboss.queue`,
    );
    for (const job of Object.values(jobs))
      expect(queues.find((q) => q.name === job.queue)).toMatchObject({
        expire_seconds: job.expireInSeconds,
        policy: "stately",
      });
    // A job still under way when stop's second ran out (the start-up reconciliation) releases its lock
    // when it ends; a lock left held for good fails here.
    const advisoryLocks = async () => {
      const [locks] = await getDb().$queryRawUnsafe<{ n: bigint }[]>(
        `SELECT count(*) AS n FROM pg_locks
         WHERE locktype = 'advisory' AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
      );
      return Number(locks?.n);
    };
    await expect.poll(advisoryLocks, { timeout: 15_000, interval: 100 }).toBe(0);
  }, 120_000);
});
