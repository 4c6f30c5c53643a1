// The nightly full reconciliation (03:17) and "Run full now" fall between incremental runs, which hold
// the one runner for their few seconds: a queued full run waits for it and runs, rather than being
// dropped as "skipped" with no run to show; a worker that stops meanwhile fails the job, so pg-boss
// gives it to the next worker.
import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { jobHandlers } from "@/lib/jobs/handlers";
import type { PlatformClient } from "@/lib/platform/client";
import { runReconciliation } from "@/lib/reconcile/run";
import { isolateDatabase } from "../../support/database";
import { FakeList } from "../../support/fake-list";
import { snapshot } from "../../support/operations";

let restore: () => Promise<void>;
beforeAll(async () => {
  restore = await isolateDatabase();
});
afterAll(async () => restore());

const RUNNER_LOCK = 7_370_001;

/** Another session holding the runner, as an incremental run does while it works. */
async function holdRunner(): Promise<{ release: () => Promise<void> }> {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  client.on("error", () => {}); // ended with the test's database
  await client.connect();
  await client.query("SELECT pg_advisory_lock($1)", [RUNNER_LOCK]);
  return { release: () => client.end() };
}

function platform(): PlatformClient {
  const list = new FakeList();
  for (let m = 0; m < 5; m++)
    list.add(
      snapshot({
        id: randomUUID(),
        status: "success",
        dateAdded: new Date(Date.UTC(1990, 5, 1, 0, m)).toISOString(),
        dateUpdated: new Date(Date.UTC(1990, 5, 1, 0, m + 1)).toISOString(),
      }),
    );
  return list as unknown as PlatformClient;
}

/** Whether the promise has settled within `ms`. */
const settledWithin = (promise: Promise<unknown>, ms: number) =>
  Promise.race([
    promise.then(
      () => true,
      () => true,
    ),
    new Promise<boolean>((r) => setTimeout(() => r(false), ms)),
  ]);

describe("a queued full reconciliation while an incremental run holds the runner", () => {
  it("waits for the runner and runs: a completed full run is recorded", async () => {
    const incremental = await holdRunner();
    const job = jobHandlers(platform()).reconcileFull();
    job.catch(() => {});
    try {
      expect(await settledWithin(job, 1_500)).toBe(false);
    } finally {
      await incremental.release();
    }
    expect(await job).toMatchObject({ status: "completed", inserted: 5 });
    expect(await getDb().reconciliationRun.findMany({ select: { kind: true, status: true } })).toEqual([
      { kind: "full", status: "completed" },
    ]);
  });

  it("a worker stopping meanwhile fails the job (pg-boss retries it) instead of completing it as skipped", async () => {
    const incremental = await holdRunner();
    const stopping = new AbortController();
    const job = jobHandlers(platform(), stopping.signal).reconcileFull();
    job.catch(() => {});
    try {
      expect(await settledWithin(job, 500)).toBe(false);
      stopping.abort();
      await expect(job).rejects.toThrow(/reconciliation/);
    } finally {
      await incremental.release();
    }
  });

  it("gives up after its wait, failing the job so that pg-boss retries it", async () => {
    const incremental = await holdRunner();
    try {
      await expect(
        runReconciliation({ kind: "full", platform: platform(), waitForRunnerMs: 1_200 }),
      ).rejects.toThrow(/another reconciliation/);
    } finally {
      await incremental.release();
    }
  });

  it("an incremental run still steps aside at once: the run under way covers it", async () => {
    const full = await holdRunner();
    try {
      expect(await jobHandlers(platform()).reconcileIncremental()).toEqual({
        status: "skipped",
        reason: "another reconciliation is running",
      });
    } finally {
      await full.release();
    }
  });
});
