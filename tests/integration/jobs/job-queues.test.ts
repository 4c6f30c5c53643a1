// "Run now" pressed twice, or a schedule ticking while a long reconciliation is under way, must queue one
// more run, not a pile of them: at most one job of a kind waits, and one more may wait behind a running one.
import PgBoss from "pg-boss";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { enqueueJob, stopSender } from "@/lib/queue/enqueue";
import { jobs } from "@/lib/queue/queues";
import { freePort } from "../../../scripts/lib/embedded-postgres";
import { isolateDatabase } from "../../support/database";

let restore: () => Promise<void>;
let worker: PgBoss;
beforeAll(async () => {
  restore = await isolateDatabase();
  worker = new PgBoss({ connectionString: process.env.DATABASE_URL!, schema: "pgboss", schedule: false });
  await worker.start();
});
afterAll(async () => {
  await worker.stop({ graceful: false, wait: true });
  await stopSender();
  await restore();
});

const waiting = async (queue: string) => {
  const rows = await getDb().$queryRaw<{ state: string; n: bigint }[]>`
    SELECT state::text, count(*) AS n FROM pgboss.job WHERE name = ${queue} GROUP BY state ORDER BY state`;
  return Object.fromEntries(rows.map((r) => [r.state, Number(r.n)]));
};

describe("the job queues", () => {
  it("keep one job waiting per kind, and one more behind a job under way", async () => {
    const queue = jobs.reconcileFull.queue;
    expect(await enqueueJob("reconcileFull")).toEqual(expect.any(String));
    expect(await enqueueJob("reconcileFull")).toBeNull(); // the waiting one covers it
    expect(await enqueueJob("reconcileFull")).toBeNull();
    expect(await waiting(queue)).toEqual({ created: 1 });

    const [running] = await worker.fetch(queue);
    expect(running).toBeDefined();
    expect(await waiting(queue)).toEqual({ active: 1 });
    // A run under way may have passed the point a user asks about: one more is queued behind it.
    expect(await enqueueJob("reconcileFull")).toEqual(expect.any(String));
    expect(await enqueueJob("reconcileFull")).toBeNull();
    expect(await waiting(queue)).toEqual({ active: 1, created: 1 });
    // Nor does a worker take the waiting one while the other is under way.
    expect(await worker.fetch(queue)).toEqual([]);

    await worker.complete(queue, running!.id);
    const [next] = await worker.fetch(queue);
    expect(next).toBeDefined();
    expect(await waiting(queue)).toEqual({ active: 1, completed: 1 });
    // Another kind has a queue of its own.
    expect(await enqueueJob("reconcileIncremental")).toEqual(expect.any(String));
  });

  it("a first job queued while the database is down fails, and the next one, once it is back, is queued", async () => {
    await stopSender();
    const url = process.env.DATABASE_URL!;
    const down = new URL(url);
    down.port = String(await freePort()); // nothing listens there
    process.env.DATABASE_URL = down.toString();
    try {
      await expect(enqueueJob("ledgerUpkeep")).rejects.toThrow();
    } finally {
      process.env.DATABASE_URL = url;
    }
    expect(await enqueueJob("ledgerUpkeep")).toEqual(expect.any(String));
  });
});
