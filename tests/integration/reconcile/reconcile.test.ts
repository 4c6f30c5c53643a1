import { randomUUID } from "node:crypto";
import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import type { PlatformClient } from "@/lib/platform/client";
import { applySnapshot } from "@/lib/operations/mirror/apply-snapshot";
import { runReconciliation } from "@/lib/reconcile/run";
import { walkOperations } from "@/lib/reconcile/walk";
import { FakeList } from "../../support/fake-list";
import { snapshot } from "../../support/operations";
import { runNoteIn } from "../../support/notes";

const db = getDb();

// Minutes after 1990-01-01: a period no other test uses, so counts here are exact.
const minute = (m: number) => new Date(Date.UTC(1990, 0, 1) + m * 60_000).toISOString();
const make = (m: number, status = "success", id: string = randomUUID()) =>
  snapshot({ id, status, dateAdded: minute(m), dateUpdated: minute(m + 1) });

beforeEach(async () => {
  await db.driftItem.deleteMany();
  await db.reconciliationRun.deleteMany();
  await db.operation.deleteMany({ where: { dateAdded: { lt: new Date("1991-01-01") } } });
});

describe("walkOperations (spec: POST /operation/operation/list, stop rule 2)", () => {
  it("visits every operation exactly once while new ones arrive at the top during the walk", async () => {
    const list = new FakeList();
    for (let m = 0; m < 95; m++) list.add(make(m));
    let next = 1000;
    list.beforeEachCall = (call) => {
      if (call > 1) for (let i = 0; i < 3; i++) list.add(make(next++));
    };
    const seen: string[] = [];
    for await (const page of walkOperations(list, { take: 10 }))
      seen.push(...page.operations.map((o) => o.id));
    expect(new Set(seen).size).toBe(seen.length);
    const original = list.ops.filter((o) => o.dateAdded < new Date(minute(1000))).map((o) => o.id);
    expect(original).toHaveLength(95);
    for (const id of original) expect(seen).toContain(id);
  });

  it("stops when skip + returned >= totalNumberRecords", async () => {
    const list = new FakeList();
    for (let m = 0; m < 30; m++) list.add(make(m));
    const pages = [];
    for await (const page of walkOperations(list, { take: 10 })) pages.push(page.operations.length);
    expect(pages).toEqual([10, 10, 10]);
    expect(list.calls).toBe(3);
  });
});

describe("runReconciliation", () => {
  it("mirrors every operation into an empty mirror and records the run", async () => {
    const list = new FakeList();
    for (let m = 0; m < 250; m++) list.add(make(m, m % 10 === 0 ? "in_progress" : "success"));
    const result = await runReconciliation({
      kind: "full",
      platform: list,
      take: 100,
      now: () => new Date("1990-02-01"),
    });
    expect(result).toMatchObject({
      status: "completed",
      pages: 3,
      operationsSeen: 250,
      inserted: 250,
      updated: 0,
      drift: 0,
    });
    const run = await db.reconciliationRun.findFirstOrThrow();
    expect(run).toMatchObject({
      status: "completed",
      pages: 3,
      operationsSeen: 250,
      inserted: 250,
      kind: "full",
    });
    expect(run.watermark?.toISOString()).toBe(minute(249));
    expect(await db.operation.count({ where: { dateAdded: { lt: new Date("1991-01-01") } } })).toBe(250);
  });

  it("records drift: missed status changes, disagreeing finals, amount differences and missing operations", async () => {
    const list = new FakeList();
    const ids: string[] = Array.from({ length: 6 }, () => randomUUID());
    ids.forEach((id, i) => list.add(make(i, "in_progress", id)));
    await runReconciliation({ kind: "full", platform: list, now: () => new Date("1990-02-01") });

    list.replace(make(0, "success", ids[0])); // webhook for success was lost
    await applySnapshot(make(1, "failed", ids[1]), "readBack"); // mirror says failed
    list.replace(make(1, "success", ids[1])); // platform says success
    const changedAmount = snapshot({
      id: ids[2],
      status: "in_progress",
      dateAdded: minute(2),
      dateUpdated: minute(3),
      amount: "999.99",
    });
    list.replace(changedAmount);
    list.ops = list.ops.filter((o) => o.id !== ids[3]); // gone from the platform
    list.add(make(10, "success")); // never reached the mirror

    const result = await runReconciliation({
      kind: "full",
      platform: list,
      now: () => new Date("1990-02-01"),
    });
    expect(result.status).toBe("completed");
    const drift = await db.driftItem.findMany({ where: { runId: (result as { runId: string }).runId } });
    const byKind = drift.map((d) => `${d.kind}:${ids.indexOf(d.operationId ?? "")}`).sort();
    expect(byKind).toEqual([
      "amountMismatch:2",
      "missingInMirror:-1",
      "missingOnPlatform:3",
      "statusMismatch:0",
      "statusMismatch:1",
    ]);
    expect((await db.operation.findUniqueOrThrow({ where: { id: ids[0] } })).status).toBe("success");
    expect((await db.operation.findUniqueOrThrow({ where: { id: ids[1] } })).status).toBe("failed");
  });

  it("an incremental run stops past the last reconciled point and the oldest open operation", async () => {
    const list = new FakeList();
    for (let m = 0; m < 500; m++) list.add(make(m * 10, m === 300 ? "in_progress" : "success"));
    await runReconciliation({ kind: "full", platform: list, take: 50, now: () => new Date("1990-03-01") });
    for (let m = 500; m < 520; m++) list.add(make(m * 10));
    const result = await runReconciliation({
      kind: "incremental",
      platform: list,
      take: 50,
      overlapMinutes: 30,
      now: () => new Date("1990-03-01"),
    });
    // 20 new + everything down to the open operation at minute 3000 (index 300 -> 220 more), page-rounded
    expect(result).toMatchObject({ status: "completed", inserted: 20 });
    const seen = (result as { operationsSeen: number }).operationsSeen;
    expect(seen).toBeGreaterThanOrEqual(20 + 200);
    expect(seen).toBeLessThanOrEqual(300);
    expect(result).toMatchObject({ stop: { code: "passedLowerBound" } });
    const run = await db.reconciliationRun.findUniqueOrThrow({
      where: { id: (result as { runId: string }).runId },
    });
    expect(run).toMatchObject({ stopCode: "passedLowerBound", stopReason: null });
    const at = (run.stopArgs as { at: string }).at;
    expect(new Date(at).toISOString()).toBe(at);
    expect(await runNoteIn("en", run)).toBe(
      `Stopped past ${at}: the last reconciled point and the oldest open operation, with overlap.`,
    );
    expect(await runNoteIn("ru", run)).toBe(
      `Остановилась после ${at}: последняя сверенная точка и самая ранняя незавершённая операция, с перекрытием.`,
    );
  });

  it("lets only one runner work at a time", async () => {
    const list = new FakeList();
    for (let m = 0; m < 50; m++) list.add(make(m));
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const slow: Pick<PlatformClient, "listOperations"> = {
      listOperations: async (req) => {
        await gate;
        return list.listOperations(req);
      },
    };
    const first = runReconciliation({ kind: "full", platform: slow });
    await new Promise((r) => setTimeout(r, 200));
    expect(await runReconciliation({ kind: "full", platform: list })).toEqual({
      status: "skipped",
      reason: "another reconciliation is running",
    });
    release();
    expect((await first).status).toBe("completed");
  });
});
