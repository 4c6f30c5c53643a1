import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import type { OperationStatus, SnapshotSource } from "@/lib/generated/prisma/enums";
import { applySnapshot, incomingSnapshot, judgeSnapshot } from "@/lib/operations/mirror/apply-snapshot";
import { fieldsOfSnapshot, MIRRORED_FIELDS, type MirrorFields } from "@/lib/operations/mirror/mirror-fields";
import type { MirrorState } from "@/lib/operations/mirror/mirror-state";
import { flagStuckOperations } from "@/lib/operations/mirror/stuck";
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
  const mirrored = (status: string, m: number, source: SnapshotSource, receivedMinute = m): MirrorState => {
    const fields = fieldsOfSnapshot(
      snapshot({ id: "7b0f8f4e-3a55-4c1e-9d7a-1c2b3d4e5f60", status, dateUpdated: at(m) }),
    );
    return {
      status: status as OperationStatus,
      dateUpdated: t(m),
      lastSource: source,
      receivedAt: t(receivedMinute),
      fields: Object.fromEntries(MIRRORED_FIELDS.map((f) => [f, fields[f] ?? null])) as MirrorFields,
      kept: { paymentMethod: null, details: null, linkPaymentForm: null },
    };
  };
  const incoming = (
    status: string,
    m: number,
    source: SnapshotSource,
    receivedMinute = m,
    dateUpdated = at(m),
  ) =>
    incomingSnapshot(
      snapshot({ id: "7b0f8f4e-3a55-4c1e-9d7a-1c2b3d4e5f60", status, dateUpdated }),
      source,
      t(receivedMinute),
    );

  it.each([
    // platform reads: the one sent later wins, unless it shows an earlier status from an earlier time
    [
      "created@0 readBack",
      mirrored("created", 0, "readBack"),
      incoming("in_progress", 1, "readBack"),
      "updated",
    ],
    [
      "in_progress@2 readBack",
      mirrored("in_progress", 2, "readBack"),
      incoming("created", 1, "reconciliation"),
      "stale",
    ],
    [
      "in_progress@1 readBack",
      mirrored("in_progress", 1, "readBack"),
      incoming("in_progress", 1, "reconciliation", 2),
      "unchanged",
    ],
    [
      "in_progress@2 readBack",
      mirrored("in_progress", 2, "readBack"),
      incoming("created", 1, "reconciliation", 3),
      "stale",
    ],
    [
      "success@1 readBack",
      mirrored("success", 1, "readBack"),
      incoming("in_progress", 5, "readBack"),
      "conflict",
    ],
    [
      "success@3 readBack",
      mirrored("success", 3, "readBack"),
      incoming("success", 1, "reconciliation", 4),
      "updated",
    ],
    ["failed@1 readBack", mirrored("failed", 1, "readBack"), incoming("failed", 5, "readBack"), "updated"],
    // the platform's API outranks a webhook it was sent after
    [
      "in_progress@2 webhook",
      mirrored("in_progress", 2, "webhook"),
      incoming("created", 1, "reconciliation", 3),
      "updated",
    ],
    [
      "in_progress@2 webhook",
      mirrored("in_progress", 2, "webhook"),
      incoming("created", 1, "reconciliation", 1),
      "stale",
    ],
    // webhooks: hints that may only move the status forward
    [
      "created@0 creation",
      mirrored("created", 0, "creation"),
      incoming("in_progress", 1, "webhook"),
      "updated",
    ],
    [
      "in_progress@1 webhook",
      mirrored("in_progress", 1, "webhook"),
      incoming("in_progress", 1, "webhook"),
      "unchanged",
    ],
    [
      "in_progress@2 readBack",
      mirrored("in_progress", 2, "readBack"),
      incoming("in_progress", 1, "webhook", 3),
      "stale",
    ],
    [
      "in_progress@2 readBack",
      mirrored("in_progress", 2, "readBack"),
      incoming("created", 3, "webhook"),
      "stale",
    ],
    [
      "success@1 readBack",
      mirrored("success", 1, "readBack"),
      incoming("in_progress", 5, "webhook"),
      "stale",
    ],
    ["none", null, incoming("in_progress", 1, "webhook"), "unconfirmed"],
    [
      "created@0 creation",
      mirrored("created", 0, "creation"),
      incoming("success", 1, "webhook"),
      "unconfirmed",
    ],
    [
      "created@0 creation",
      mirrored("created", 0, "creation"),
      incoming("in_progress", 1, "webhook", 1, "2099-12-31T00:00:00.000Z"),
      "unconfirmed",
    ],
  ] as const)("%s, then %o -> %s", (_name, current, next, outcome) => {
    expect(judgeSnapshot(current, next).outcome).toBe(outcome);
  });

  it("does not trust a far-future dateUpdated for ordering", () => {
    // A later status: a hint of the mirrored status no longer moves the mirror, whatever its date.
    const frozen = {
      ...mirrored("created", 1, "webhook"),
      dateUpdated: new Date("2099-12-31T00:00:00.000Z"),
    };
    expect(judgeSnapshot(frozen, incoming("in_progress", 20, "webhook")).outcome).toBe("updated");
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
    const received = (m: number) => ({ receivedAt: new Date(at(m)) });
    await applySnapshot(snapshot({ id, status: "created", dateUpdated: at(0) }), "creation", received(0));
    expect(
      (
        await applySnapshot(
          snapshot({ id, status: "in_progress", dateUpdated: at(1) }),
          "webhook",
          received(1),
        )
      ).outcome,
    ).toBe("updated");
    // a page read before the webhook arrived
    expect(
      (
        await applySnapshot(
          snapshot({ id, status: "created", dateUpdated: at(0) }),
          "reconciliation",
          received(0),
        )
      ).outcome,
    ).toBe("stale");
    expect(
      (
        await applySnapshot(
          snapshot({ id, status: "in_progress", dateUpdated: at(1) }),
          "webhook",
          received(1),
        )
      ).outcome,
    ).toBe("unchanged");
    expect(
      (await applySnapshot(snapshot({ id, status: "success", dateUpdated: at(2) }), "readBack", received(2)))
        .outcome,
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
    const result = await applySnapshot(snapshot({ id, status: "success", dateUpdated: at(9) }), "readBack");
    expect(result).toEqual({ outcome: "conflict", previousStatus: "failed", status: "failed" });
    expect((await mirrored(id)).op.status).toBe("failed");
  });

  it("stays correct when many snapshots of one operation arrive at the same moment", async () => {
    const id = randomUUID();
    const statuses = ["created", "booking", "in_progress", "success"] as const;
    const snapshots = Array.from({ length: 24 }, (_, i) =>
      snapshot({ id, status: statuses[i % 4], dateUpdated: at(i % 4) }),
    );
    const moment = { receivedAt: new Date() };
    const results = await Promise.all(snapshots.map((s) => applySnapshot(s, "readBack", moment)));
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
    expect(history.at(-1)).toMatch(/>success@readBack$/);
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
      "readBack",
    );
    expect((await mirrored(stuck.id)).op.stuckFlaggedAt).toBeNull();
  });
});
