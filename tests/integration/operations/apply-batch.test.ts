// The batch form of the mirror write (reconciliation pages, lib/operations/mirror/apply-batch.ts):
// every outcome in one batch, the history rows it writes (and does not), what an update keeps of the
// stored row (first seen, the stuck flag unless final, the payment method a read lacks), and an
// operation listed twice applied once.
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { getDb, withPoolTransaction } from "@/lib/db";
import { applySnapshotsBatch } from "@/lib/operations/mirror/apply-batch";
import { applySnapshot } from "@/lib/operations/mirror/apply-snapshot";
import { fieldsOfSnapshot } from "@/lib/operations/mirror/mirror-fields";
import { lockAndReadMirrorStates } from "@/lib/operations/mirror/mirror-state";
import { snapshot } from "../../support/operations";

const db = getDb();
const t = (minute: number) => new Date(`2027-06-01T09:${String(minute).padStart(2, "0")}:00.000Z`);
const iso = (minute: number) => t(minute).toISOString();

/** A pay-in read without payment details (some deployments leave them out): it says nothing of the method. */
function withoutDetails(input: Parameters<typeof snapshot>[0]) {
  return { ...snapshot(input), paymentDetailsData: null };
}

async function historyOf(id: string) {
  return db.operationStatusChange.findMany({
    where: { operationId: id },
    orderBy: { id: "asc" },
    select: { fromStatus: true, toStatus: true, source: true, sourceRef: true, platformDateUpdated: true },
  });
}

describe("applySnapshotsBatch", () => {
  it("nothing to apply: no result", async () => {
    expect(await applySnapshotsBatch([], "reconciliation", "run-0")).toEqual([]);
  });

  it("one batch: inserted, moved on, updated in place, unchanged and stale; history only where the status moved", async () => {
    const [fresh, moving, completing, same, older] = [
      randomUUID(),
      randomUUID(),
      randomUUID(),
      randomUUID(),
      randomUUID(),
    ];
    await applySnapshot(snapshot({ id: moving, status: "created", dateUpdated: iso(1) }), "readBack", {
      receivedAt: t(2),
      sourceRef: "first",
    });
    await applySnapshot(snapshot({ id: completing, status: "success", dateUpdated: iso(1) }), "readBack", {
      receivedAt: t(2),
    });
    await applySnapshot(snapshot({ id: same, status: "in_progress", dateUpdated: iso(1) }), "readBack", {
      receivedAt: t(2),
    });
    await applySnapshot(snapshot({ id: older, status: "in_progress", dateUpdated: iso(5) }), "readBack", {
      receivedAt: t(6),
    });
    const before = await db.operation.findUniqueOrThrow({ where: { id: moving } });

    const results = await applySnapshotsBatch(
      [
        snapshot({ id: fresh, status: "created", dateUpdated: iso(3) }),
        snapshot({ id: moving, status: "in_progress", dateUpdated: iso(3) }),
        snapshot({ id: completing, status: "success", dateUpdated: iso(3) }),
        snapshot({ id: same, status: "in_progress", dateUpdated: iso(1) }),
        snapshot({ id: older, status: "created", dateUpdated: iso(4) }),
        snapshot({ id: fresh, status: "created", dateUpdated: iso(3) }),
      ],
      "reconciliation",
      "run-1",
      t(10),
    );
    expect(results.map((r) => [r.op.id, r.outcome, r.before?.status ?? null])).toEqual([
      [fresh, "inserted", null],
      [moving, "updated", "created"],
      [completing, "updated", "success"],
      [same, "unchanged", "in_progress"],
      [older, "stale", "in_progress"],
    ]);
    expect(results[1]!.differences).toEqual(["status", "dateUpdated"]);

    expect(await historyOf(fresh)).toEqual([
      {
        fromStatus: null,
        toStatus: "created",
        source: "reconciliation",
        sourceRef: "run-1",
        platformDateUpdated: t(3),
      },
    ]);
    expect(await historyOf(moving)).toEqual([
      {
        fromStatus: null,
        toStatus: "created",
        source: "readBack",
        sourceRef: "first",
        platformDateUpdated: t(1),
      },
      {
        fromStatus: "created",
        toStatus: "in_progress",
        source: "reconciliation",
        sourceRef: "run-1",
        platformDateUpdated: t(3),
      },
    ]);
    expect(await historyOf(completing)).toHaveLength(1);
    expect(await historyOf(same)).toHaveLength(1);
    expect(await historyOf(older)).toHaveLength(1);

    const after = await db.operation.findUniqueOrThrow({ where: { id: moving } });
    expect(after).toMatchObject({
      status: "in_progress",
      lastSource: "reconciliation",
      snapshotReceivedAt: t(10),
      firstSeenAt: before.firstSeenAt,
    });
    expect(after.mirroredAt.getTime()).toBeGreaterThan(before.mirroredAt.getTime());
    expect(await db.operation.findUniqueOrThrow({ where: { id: older } })).toMatchObject({
      status: "in_progress",
      lastSource: "readBack",
    });
  });

  it("the stuck flag stays on an operation still open and is cleared by a final status", async () => {
    const [open, finished] = [randomUUID(), randomUUID()];
    for (const id of [open, finished]) {
      await applySnapshot(snapshot({ id, status: "in_progress", dateUpdated: iso(1) }), "readBack", {
        receivedAt: t(2),
      });
    }
    const flaggedAt = t(3);
    await db.operation.updateMany({
      where: { id: { in: [open, finished] } },
      data: { stuckFlaggedAt: flaggedAt },
    });
    await applySnapshotsBatch(
      [
        snapshot({ id: open, status: "in_progress", dateUpdated: iso(4) }),
        snapshot({ id: finished, status: "failed", dateUpdated: iso(4) }),
      ],
      "reconciliation",
      "run-2",
      t(10),
    );
    expect((await db.operation.findUniqueOrThrow({ where: { id: open } })).stuckFlaggedAt).toEqual(flaggedAt);
    expect((await db.operation.findUniqueOrThrow({ where: { id: finished } })).stuckFlaggedAt).toBeNull();
  });

  it("a later read without the payment details keeps the method the mirror had", async () => {
    const id = randomUUID();
    await applySnapshot(snapshot({ id, status: "created", dateUpdated: iso(1) }), "readBack", {
      receivedAt: t(2),
    });
    expect((await db.operation.findUniqueOrThrow({ where: { id } })).paymentMethod).toBe("toCard");
    await applySnapshotsBatch(
      [withoutDetails({ id, status: "in_progress", dateUpdated: iso(4) })],
      "reconciliation",
      null,
      t(10),
    );
    expect(await db.operation.findUniqueOrThrow({ where: { id } })).toMatchObject({
      status: "in_progress",
      paymentMethod: "toCard",
      detailsBankName: "Sberbank",
    });
    expect((await historyOf(id)).at(-1)).toMatchObject({ sourceRef: null, toStatus: "in_progress" });
  });

  it("reads back under the lock exactly what was applied: every field of the snapshot, its arrival, JSON details, nulls", async () => {
    const [withJson, bare] = [randomUUID(), randomUUID()];
    const pending = snapshot({ id: withJson, status: "in_progress", dateUpdated: iso(1) });
    const payOut = snapshot({ id: bare, typeOperation: "payOut", dateUpdated: iso(3) });
    await applySnapshot(pending, "readBack", { receivedAt: t(2) });
    await applySnapshot(payOut, "readBack", { receivedAt: t(4) });
    await db.operation.update({
      where: { id: withJson },
      data: { detailsNumberAdditional: { phone: "+79990001122", codes: [1, 2.5] }, detailsQrCode: "qr-text" },
    });
    const states = await withPoolTransaction(
      (tx) => lockAndReadMirrorStates(tx, [withJson, bare, randomUUID()]),
      { statementTimeoutMs: 5_000 },
    );
    expect([...states.keys()].sort()).toEqual([withJson, bare].sort());
    // What judgeSnapshot compares: a snapshot read back unchanged must compare equal, field for field.
    const { detailsNumberAdditional, detailsQrCode, ...rest } = fieldsOfSnapshot(pending);
    expect(detailsNumberAdditional).toBeNull();
    expect(detailsQrCode).toBeNull();
    expect(states.get(withJson)?.fields).toMatchObject(rest);
    expect(states.get(bare)?.fields).toMatchObject(fieldsOfSnapshot(payOut));
    expect(states.get(bare)).toMatchObject({ status: "created", lastSource: "readBack", receivedAt: t(4) });
    expect(states.get(withJson)?.kept.details).toMatchObject({
      bankName: "Sberbank",
      numberAdditional: { phone: "+79990001122", codes: [1, 2.5] },
      qRcode: "qr-text",
    });
    expect(states.get(bare)?.kept).toMatchObject({ paymentMethod: null, linkPaymentForm: null });
  });
});
