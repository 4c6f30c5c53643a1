// How a reconciliation run stores its pages: one page in the database while the next is prepared,
// never more, and a page that fails ends the run only after the page stored beside it has settled.
import { randomUUID } from "node:crypto";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { getDb } from "@/lib/db";
import { runReconciliation } from "@/lib/reconcile/run";
import { FakeList } from "../../support/fake-list";
import { snapshot } from "../../support/operations";

const events: string[] = [];
// The page whose write fails at once, one whose write takes longer than the others, and how many times
// each page's transaction is ended by a deadlock before it goes through.
const pages = {
  failing: null as string | null,
  slow: null as string | null,
  deadlocks: new Map<string, number>(),
};
// What Prisma 7 with @prisma/adapter-pg throws when PostgreSQL ends a transaction in a deadlock.
const deadlock = () =>
  Object.assign(new Error("Raw query failed. Code: `40P01`. Message: `deadlock detected`"), {
    code: "P2010",
    meta: { driverAdapterError: { cause: { originalCode: "40P01", kind: "TransactionWriteConflict" } } },
  });

vi.mock("@/lib/operations/mirror/apply-batch", async (importOriginal) => {
  const actual = await importOriginal<typeof import("@/lib/operations/mirror/apply-batch")>();
  return {
    ...actual,
    applySnapshotsBatch: async (...args: Parameters<typeof actual.applySnapshotsBatch>) => {
      const page = args[2];
      events.push(`start ${page}`);
      try {
        if (page === pages.failing) throw new Error(`page ${page} could not be stored`);
        const deadlocks = pages.deadlocks.get(page ?? "") ?? 0;
        if (deadlocks > 0) {
          pages.deadlocks.set(page ?? "", deadlocks - 1);
          throw deadlock();
        }
        // Long enough for the run to move on to the next page if it is going to.
        await new Promise((resolve) => setTimeout(resolve, page === pages.slow ? 300 : 50));
        return await actual.applySnapshotsBatch(...args);
      } finally {
        events.push(`end ${page}`);
      }
    },
  };
});

const db = getDb();
// Minutes after 1989-01-01: a period no other test uses.
const minute = (m: number) => new Date(Date.UTC(1989, 0, 1) + m * 60_000).toISOString();

function listOf(count: number): FakeList {
  const list = new FakeList();
  for (let m = 0; m < count; m++)
    list.add(
      snapshot({ id: randomUUID(), status: "success", dateAdded: minute(m), dateUpdated: minute(m + 1) }),
    );
  return list;
}

function mostInFlight(log: string[]): number {
  let current = 0;
  let most = 0;
  for (const event of log) {
    current += event.startsWith("start") ? 1 : -1;
    most = Math.max(most, current);
  }
  return most;
}

// The run's clock: a month after these operations, so that only they are old enough to count as missing.
const now = () => new Date("1989-02-01");
const storedCount = () => db.operation.count({ where: { dateAdded: { lt: new Date("1990-01-01") } } });

beforeEach(async () => {
  events.length = 0;
  pages.failing = null;
  pages.slow = null;
  pages.deadlocks.clear();
  await db.driftItem.deleteMany();
  await db.reconciliationRun.deleteMany();
  await db.operation.deleteMany({ where: { dateAdded: { lt: new Date("1990-01-01") } } });
});

describe("a reconciliation run's page writes", () => {
  it("starts the next page while the previous one is stored, with at most two pages in flight", async () => {
    const result = await runReconciliation({
      kind: "full",
      platform: listOf(40),
      take: 10,
      now,
    });
    expect(result).toMatchObject({ status: "completed", pages: 4, operationsSeen: 40, inserted: 40 });
    expect(await storedCount()).toBe(40);
    // The second page starts while the first is in the database; no third page starts before one ends.
    expect(events.indexOf("start list-2")).toBeLessThan(events.indexOf("end list-1"));
    expect(mostInFlight(events)).toBe(2);
  });

  it("a page that fails marks the run failed once the page beside it has settled; what was stored stays", async () => {
    pages.failing = "list-2";
    pages.slow = "list-3";
    await expect(runReconciliation({ kind: "full", platform: listOf(40), take: 10, now })).rejects.toThrow(
      "page list-2 could not be stored",
    );
    // list-3 was under way when the run came to list-2's failure: it finished before the run ended.
    expect(events).toEqual([
      "start list-1",
      "start list-2",
      "end list-2",
      "end list-1",
      "start list-3",
      "end list-3",
    ]);
    // Pages 1 and 3 are in the mirror (each in its own transaction); page 2's ten operations are not.
    expect(await storedCount()).toBe(20);
    const run = await db.reconciliationRun.findFirstOrThrow();
    expect(run).toMatchObject({
      status: "failed",
      errorCode: "failed",
      error: "page list-2 could not be stored",
    });
    expect(run.finishedAt).not.toBeNull();
    expect(run.pages).toBe(2);
  });

  it("takes the first page's newest operation as the watermark even when a later page is stored first", async () => {
    pages.slow = "list-1";
    const result = await runReconciliation({ kind: "full", platform: listOf(20), take: 10, now });
    expect(result.status).toBe("completed");
    expect(events.indexOf("end list-2")).toBeLessThan(events.indexOf("end list-1"));
    const run = await db.reconciliationRun.findFirstOrThrow();
    expect(run.watermark?.toISOString()).toBe(minute(19));
  });

  it("writes a page again when its transaction was ended by a deadlock, up to three attempts", async () => {
    pages.deadlocks.set("list-2", 2);
    const result = await runReconciliation({ kind: "full", platform: listOf(30), take: 10, now });
    expect(result).toMatchObject({ status: "completed", pages: 3, inserted: 30 });
    expect(events.filter((e) => e === "start list-2")).toHaveLength(3);
    expect(await storedCount()).toBe(30);
  });

  it("fails the run when a page meets a deadlock a third time, or any other error once", async () => {
    pages.deadlocks.set("list-2", 3);
    await expect(runReconciliation({ kind: "full", platform: listOf(30), take: 10, now })).rejects.toThrow(
      "deadlock detected",
    );
    expect(events.filter((e) => e === "start list-2")).toHaveLength(3);
    expect(await db.reconciliationRun.findFirstOrThrow()).toMatchObject({
      status: "failed",
      errorCode: "failed",
    });
    events.length = 0;
    await db.reconciliationRun.deleteMany();
    pages.failing = "list-1";
    await expect(runReconciliation({ kind: "full", platform: listOf(30), take: 10, now })).rejects.toThrow(
      "page list-1 could not be stored",
    );
    expect(events.filter((e) => e === "start list-1")).toHaveLength(1);
  });
});
