// A disagreement reconciliation cannot repair (a final status the platform disputes, an operation the
// platform no longer lists) is found again by every run: it stays one drift item while it is unresolved,
// not a new one every night (and every five minutes for recent ones). A different disagreement, or the
// same one after a person resolved the item, is a new item.
import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { applySnapshot } from "@/lib/operations/mirror/apply-snapshot";
import { runReconciliation } from "@/lib/reconcile/run";
import { isolateDatabase } from "../../support/database";
import { FakeList } from "../../support/fake-list";
import { snapshot } from "../../support/operations";

let restore: () => Promise<void>;
beforeAll(async () => {
  restore = await isolateDatabase();
});
afterAll(async () => restore());

const db = () => getDb();
const minute = (m: number) => new Date(Date.UTC(1990, 0, 1) + m * 60_000).toISOString();
const make = (m: number, status: string, id: string, updated = m + 1) =>
  snapshot({ id, status, dateAdded: minute(m), dateUpdated: minute(updated) });
const now = () => new Date("1990-02-01");

const unresolved = async () =>
  (
    await db().driftItem.findMany({
      where: { state: { not: "resolved" } },
      orderBy: [{ createdAt: "asc" }, { kind: "asc" }],
    })
  ).map((d) => [d.kind, d.operationId]);

describe("a disagreement found again by the next runs", () => {
  it("stays one item while unresolved; a new platform value or a resolved item lets a new one in", async () => {
    const [disputed, gone, fine] = [randomUUID(), randomUUID(), randomUUID()];
    const list = new FakeList();
    list.add(make(0, "in_progress", disputed));
    list.add(make(1, "in_progress", gone));
    list.add(make(2, "success", fine));
    await runReconciliation({ kind: "full", platform: list, now });

    await applySnapshot(make(0, "failed", disputed), "readBack"); // the mirror's final status
    list.replace(make(0, "success", disputed)); // the platform says success: a conflict, not repaired
    list.ops = list.ops.filter((o) => o.id !== gone);
    const first = await runReconciliation({ kind: "full", platform: list, now });
    expect(first).toMatchObject({ status: "completed", drift: 2 });
    const found = [
      ["statusMismatch", disputed],
      ["missingOnPlatform", gone],
    ];
    expect((await unresolved()).sort()).toEqual([...found].sort());

    // The next full run, and an incremental one, find the same: no new item.
    expect(await runReconciliation({ kind: "full", platform: list, now })).toMatchObject({ drift: 0 });
    expect(await runReconciliation({ kind: "incremental", platform: list, now })).toMatchObject({
      status: "completed",
      drift: 0,
    });
    expect((await unresolved()).sort()).toEqual([...found].sort());
    expect(await db().driftItem.count()).toBe(2);

    // An acknowledged item holds it too.
    await db().driftItem.updateMany({ where: { operationId: disputed }, data: { state: "acknowledged" } });
    expect(await runReconciliation({ kind: "full", platform: list, now })).toMatchObject({ drift: 0 });

    // The platform's side changed: a new disagreement, a new item.
    list.replace(make(0, "success", disputed, 5));
    expect(await runReconciliation({ kind: "full", platform: list, now })).toMatchObject({ drift: 1 });
    expect(await db().driftItem.count({ where: { operationId: disputed } })).toBe(2);

    // Resolved (a decision, the mirror unchanged): the disagreement still there is a new item.
    await db().driftItem.updateMany({ data: { state: "resolved", resolvedAt: new Date() } });
    expect(await runReconciliation({ kind: "full", platform: list, now })).toMatchObject({ drift: 2 });
    expect((await unresolved()).sort()).toEqual([...found].sort());
    expect(await runReconciliation({ kind: "full", platform: list, now })).toMatchObject({ drift: 0 });
  });
});

describe("the run's drift count with two pages stored at once", () => {
  it("counts every page's items, however their writes interleave", async () => {
    const list = new FakeList();
    await runReconciliation({ kind: "full", platform: list, now }); // the mirror was reconciled once
    const before = await db().driftItem.count();
    // two operations the mirror never had, one a page
    list.add(make(100, "success", randomUUID()));
    list.add(make(101, "success", randomUUID()));
    // Inserts into DriftItem wait while another session holds it in SHARE mode: both pages' writes are
    // under way at once when it lets go.
    const holder = new pg.Client({ connectionString: process.env.DATABASE_URL });
    holder.on("error", () => {});
    await holder.connect();
    await holder.query(`BEGIN; LOCK TABLE "DriftItem" IN SHARE MODE`);
    try {
      const run = runReconciliation({ kind: "full", platform: list, take: 1, now });
      await new Promise((r) => setTimeout(r, 1_000));
      await holder.query("COMMIT");
      expect(await run).toMatchObject({ status: "completed", pages: 2, drift: 2 });
    } finally {
      await holder.end();
    }
    expect((await db().driftItem.count()) - before).toBe(2);
  });
});
