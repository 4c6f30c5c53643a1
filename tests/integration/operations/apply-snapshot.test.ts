import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { applySnapshot, judgeSnapshot } from "@/lib/operations/apply-snapshot";
import { flagStuckOperations } from "@/lib/operations/stuck";
import { snapshot } from "../../support/operations";

const at = (minute: number) => `2026-11-20T10:${String(minute).padStart(2, "0")}:00.000Z`;

async function mirrored(id: string) {
  const db = getDb();
  const op = await db.operation.findUniqueOrThrow({ where: { id } });
  const history = await db.operationStatusChange.findMany({
    where: { operationId: id },
    orderBy: { id: "asc" },
  });
  return { op, history: history.map((h) => `${h.fromStatus ?? "-"}>${h.toStatus}@${h.source}`) };
}

describe("judgeSnapshot", () => {
  const t = (m: number) => new Date(at(m));
  it.each([
    ["created", 0, "in_progress", 1, "updated"],
    ["in_progress", 2, "created", 1, "stale"],
    ["in_progress", 1, "in_progress", 1, "unchanged"],
    ["created", 1, "in_progress", 1, "updated"],
    ["in_progress", 1, "created", 1, "stale"],
    ["success", 1, "in_progress", 5, "conflict"],
    ["success", 1, "failed", 5, "conflict"],
    ["failed", 1, "failed", 5, "updated"],
    ["success", 3, "success", 1, "stale"],
  ] as const)("%s@%i then %s@%i -> %s", (from, fromAt, to, toAt, outcome) => {
    expect(
      judgeSnapshot({ status: from, dateUpdated: t(fromAt) }, { status: to, dateUpdated: t(toAt) }),
    ).toBe(outcome);
  });
});

describe("applySnapshot", () => {
  it("inserts every field with exact amounts and records the first status with its source", async () => {
    const op = snapshot({ amount: "922337203685477.5807", status: "created" });
    expect(await applySnapshot(op, "creation", { sourceRef: "trace-1" })).toEqual({
      outcome: "inserted",
      previousStatus: null,
      status: "created",
    });
    const { op: row, history } = await mirrored(op.id);
    expect(row.amount.toFixed()).toBe("922337203685477.5807");
    expect(row.amountComission?.toFixed(4)).toBe("45.0150");
    expect(row.exchangeRate?.toFixed()).toBe("95.5");
    expect(row.detailsNumber).toBe("4276000000000001");
    expect(row.paymentMethod).toBe("toCard");
    expect(row.raw).toMatchObject({ amount: "922337203685477.5807" });
    expect(history).toEqual(["->created@creation"]);
  });

  it("moves forward, ignores older snapshots and records each change once", async () => {
    const id = randomUUID();
    await applySnapshot(snapshot({ id, status: "created", dateUpdated: at(0) }), "creation");
    expect(
      (await applySnapshot(snapshot({ id, status: "in_progress", dateUpdated: at(1) }), "webhook")).outcome,
    ).toBe("updated");
    expect(
      (await applySnapshot(snapshot({ id, status: "created", dateUpdated: at(0) }), "reconciliation"))
        .outcome,
    ).toBe("stale");
    expect(
      (await applySnapshot(snapshot({ id, status: "in_progress", dateUpdated: at(1) }), "webhook")).outcome,
    ).toBe("unchanged");
    expect(
      (await applySnapshot(snapshot({ id, status: "success", dateUpdated: at(2) }), "readBack")).outcome,
    ).toBe("updated");
    const { op, history } = await mirrored(id);
    expect(op.status).toBe("success");
    expect(op.lastSource).toBe("readBack");
    expect(history).toEqual([
      "->created@creation",
      "created>in_progress@webhook",
      "in_progress>success@readBack",
    ]);
  });

  it("never moves a final status, even for a newer snapshot", async () => {
    const id = randomUUID();
    await applySnapshot(snapshot({ id, status: "failed", dateUpdated: at(3) }), "reconciliation");
    const result = await applySnapshot(snapshot({ id, status: "success", dateUpdated: at(9) }), "webhook");
    expect(result).toEqual({ outcome: "conflict", previousStatus: "failed", status: "failed" });
    expect((await mirrored(id)).op.status).toBe("failed");
  });

  it("stays correct when many snapshots of one operation arrive at the same moment", async () => {
    const id = randomUUID();
    const statuses = ["created", "booking", "in_progress", "success"] as const;
    const snapshots = Array.from({ length: 24 }, (_, i) =>
      snapshot({ id, status: statuses[i % 4], dateUpdated: at(i % 4) }),
    );
    const results = await Promise.all(snapshots.map((s) => applySnapshot(s, "webhook")));
    expect(results.filter((r) => r.outcome === "inserted")).toHaveLength(1);
    const { op, history } = await mirrored(id);
    expect(op.status).toBe("success");
    // each recorded change moves forward in time: no regression was ever written
    const rows = await getDb().operationStatusChange.findMany({
      where: { operationId: id },
      orderBy: { id: "asc" },
    });
    for (let i = 1; i < rows.length; i++) {
      expect(rows[i]!.platformDateUpdated!.getTime()).toBeGreaterThan(
        rows[i - 1]!.platformDateUpdated!.getTime(),
      );
    }
    expect(history.at(-1)).toMatch(/>success@webhook$/);
  });

  it("flags operations stuck in a non-final status and clears the flag at the final status", async () => {
    const stuck = snapshot({
      status: "in_progress",
      dateAdded: "2026-01-01T00:00:00.000Z",
      dateUpdated: "2026-01-01T00:05:00.000Z",
    });
    await applySnapshot(stuck, "reconciliation");
    const now = new Date("2026-01-01T02:00:00.000Z");
    expect(await flagStuckOperations(60, now)).toBeGreaterThanOrEqual(1);
    expect((await mirrored(stuck.id)).op.stuckFlaggedAt).toEqual(now);
    await applySnapshot(
      snapshot({
        id: stuck.id,
        status: "success",
        dateAdded: "2026-01-01T00:00:00.000Z",
        dateUpdated: "2026-01-01T03:00:00.000Z",
      }),
      "webhook",
    );
    expect((await mirrored(stuck.id)).op.stuckFlaggedAt).toBeNull();
  });
});
