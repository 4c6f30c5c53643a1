// A database restart or a failover ends every session. The idle connections a web process keeps (the
// Prisma client's pool, the job sender's pg-boss) must log their end and connect again for the next
// query, not throw it at the process: an uncaught exception there is a web server down.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { getDb } from "@/lib/db";
import { getLog } from "@/lib/log";
import { enqueueJob, stopSender } from "@/lib/queue/enqueue";
import { isolateDatabase, withClient } from "../../support/database";

let restore: () => Promise<void>;
const uncaught: unknown[] = [];
const onUncaught = (error: unknown) => uncaught.push(error);

beforeAll(async () => {
  restore = await isolateDatabase(); // every session of this database is this file's to end
  process.on("uncaughtException", onUncaught);
});
afterAll(async () => {
  process.off("uncaughtException", onUncaught);
  await stopSender();
  await restore();
});

/** Ends every other session of the current database, as PostgreSQL does on a restart. */
async function endAllSessions(): Promise<number> {
  return withClient(process.env.DATABASE_URL!, async (client) => {
    const { rowCount } = await client.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
       WHERE datname = current_database() AND pid <> pg_backend_pid()`,
    );
    return rowCount ?? 0;
  });
}

async function until(check: () => boolean, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
}

describe("the database ends the sessions of a running process", () => {
  it("the pool and the job sender log it, and the next query and the next job go through", async () => {
    const warn = vi.spyOn(getLog(), "warn");
    const error = vi.spyOn(getLog(), "error");
    expect(await getDb().user.count()).toBe(0);
    const first = await enqueueJob("reconcileIncremental");
    expect(first).toEqual(expect.any(String));

    expect(await endAllSessions()).toBeGreaterThanOrEqual(2); // the pool's and the sender's, at least
    const logged = (spy: typeof warn, message: string) =>
      spy.mock.calls.some((call) => call.includes(message));
    await until(
      () => logged(warn, "database: an idle connection ended") && logged(error, "pg-boss error (job sender)"),
    );

    expect(uncaught).toEqual([]);
    expect(logged(warn, "database: an idle connection ended")).toBe(true);
    expect(logged(error, "pg-boss error (job sender)")).toBe(true);
    expect(await getDb().user.count()).toBe(0);
    // The first job is still waiting (tests/integration/jobs/job-queues.test.ts): it covers the second.
    expect(await enqueueJob("reconcileIncremental")).toBeNull();
    expect(await enqueueJob("balanceSnapshot")).toEqual(expect.any(String));
    const queued = await getDb().$queryRaw<{ name: string }[]>`SELECT name FROM pgboss.job ORDER BY name`;
    expect(queued.map((j) => j.name)).toEqual(["balance-snapshot", "reconcile-incremental"]);
  });
});
