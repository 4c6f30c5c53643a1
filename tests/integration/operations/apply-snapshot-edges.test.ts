// Edges of the mirror's "never regress" rule, with API-sourced snapshots (read-back, reconciliation):
// snapshots without dateUpdated, equal dateUpdated with statuses of the same rank, reads that lack the
// payment method, updates that change no status, and the rank of every status written out.
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { getDb, withPoolTransaction } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import type { OperationStatus } from "@/lib/generated/prisma/enums";
import { applySnapshot, incomingSnapshot, judgeSnapshot } from "@/lib/operations/mirror/apply-snapshot";
import { fieldsOfSnapshot, MIRRORED_FIELDS, type MirrorFields } from "@/lib/operations/mirror/mirror-fields";
import type { MirrorState } from "@/lib/operations/mirror/mirror-state";
import { finalStatuses, isFinal, statusRank } from "@/lib/operations/status";
import type { Operation } from "@/lib/platform/schemas";
import { snapshot, type SnapshotInput } from "../../support/operations";

const at = (minute: number) => `2027-05-04T08:${String(minute).padStart(2, "0")}:00.000Z`;
const t = (minute: number) => new Date(at(minute));

/** A snapshot as the platform sends it without dateUpdated (the field absent or null). */
function withoutDateUpdated(input: SnapshotInput): Operation {
  return { ...snapshot(input), dateUpdated: null, dateUpdatedText: null };
}

/** A pay-in read whose paymentDetailsData is null (reads of some deployments leave it out). */
function withoutDetails(input: SnapshotInput): Operation {
  return { ...snapshot(input), paymentDetailsData: null };
}

async function state(id: string) {
  const db = getDb();
  const op = await db.operation.findUniqueOrThrow({ where: { id } });
  const history = await db.operationStatusChange.findMany({
    where: { operationId: id },
    orderBy: { id: "asc" },
  });
  return { op, history };
}

describe("the rank of each status (used only when dateUpdated is equal)", () => {
  it("every status, written out", () => {
    const all: OperationStatus[] = [
      "precreated",
      "created",
      "booking",
      "pending_retry",
      "in_progress",
      "success",
      "failed",
    ];
    expect(Object.fromEntries(all.map((s) => [s, statusRank(s)]))).toEqual({
      precreated: 0,
      created: 1,
      booking: 2,
      pending_retry: 2,
      in_progress: 3,
      success: 4,
      failed: 4,
    });
    expect([...finalStatuses]).toEqual(["success", "failed"]);
    expect(all.filter(isFinal)).toEqual(["success", "failed"]);
  });
});

describe("judgeSnapshot edges", () => {
  // times are "mm:ss.mmm" past 08:00 on one day, or "-" for a snapshot without dateUpdated
  const time = (text: string) => (text === "-" ? null : new Date(`2027-05-04T08:${text}Z`));
  // Both snapshots come from the platform's API (read-backs), the second one received after the first:
  // what decides is then the status order and dateUpdated, the edges this table walks.
  const ID = "5d0c1a2b-3c4d-4e5f-8a6b-7c8d9e0f1a2b";
  const state = (status: OperationStatus, at: string): MirrorState => {
    const op = { ...snapshot({ id: ID, status }), dateUpdated: time(at) };
    return {
      status,
      dateUpdated: time(at),
      lastSource: "readBack",
      receivedAt: new Date("2027-05-04T08:20:00.000Z"),
      fields: Object.fromEntries(
        MIRRORED_FIELDS.map((f) => [f, fieldsOfSnapshot(op)[f] ?? null]),
      ) as MirrorFields,
      kept: { paymentMethod: null, details: null, linkPaymentForm: null },
    };
  };
  const j = (from: OperationStatus, fromAt: string, to: OperationStatus, toAt: string) =>
    judgeSnapshot(
      state(from, fromAt),
      incomingSnapshot(
        { ...snapshot({ id: ID, status: to }), dateUpdated: time(toAt) },
        "readBack",
        new Date("2027-05-04T08:21:00.000Z"),
      ),
    ).outcome;

  it.each([
    // without dateUpdated on either side
    ["created", "-", "in_progress", "01:00.000", "updated"],
    ["in_progress", "01:00.000", "success", "-", "updated"], // a later read: final, higher rank
    ["created", "-", "created", "-", "unchanged"],
    ["created", "-", "in_progress", "-", "updated"],
    ["in_progress", "-", "created", "-", "stale"],
    // equal dateUpdated, same rank: the later API read stands (issue 10: API snapshots by arrival)
    ["booking", "02:00.000", "pending_retry", "02:00.000", "updated"], // same rank: the later read stands
    ["pending_retry", "02:00.000", "booking", "02:00.000", "updated"],
    // equal dateUpdated, one rank apart
    ["precreated", "02:00.000", "created", "02:00.000", "updated"],
    ["in_progress", "02:00.000", "pending_retry", "02:00.000", "stale"],
    ["pending_retry", "02:00.000", "in_progress", "02:00.000", "updated"],
    // a final status never moves: checked before time, so an older snapshot is a conflict, not stale
    ["success", "05:00.000", "in_progress", "01:00.000", "conflict"],
    ["failed", "05:00.000", "success", "05:00.000", "conflict"],
    ["failed", "-", "created", "-", "conflict"],
    // the same final status again, newer: updated (amounts may have been completed)
    ["success", "01:00.000", "success", "02:00.000", "updated"],
    ["success", "02:00.000", "success", "02:00.000", "unchanged"],
    // one millisecond decides
    ["created", "03:00.001", "in_progress", "03:00.000", "updated"], // higher rank from a later read
    ["in_progress", "03:00.000", "created", "03:00.001", "updated"],
  ] as const)("%s at %s, then %s at %s -> %s", (from, fromAt, to, toAt, outcome) => {
    expect(j(from, fromAt, to, toAt)).toBe(outcome);
  });
});

describe("applySnapshot edges", () => {
  it("a first snapshot without dateUpdated is stored with none, and its history row too", async () => {
    const op = withoutDateUpdated({ status: "created" });
    expect(await applySnapshot(op, "readBack", { sourceRef: "trace-a" })).toEqual({
      outcome: "inserted",
      previousStatus: null,
      status: "created",
    });
    const { op: row, history } = await state(op.id);
    expect(row.dateUpdated).toBeNull();
    expect(history).toMatchObject([
      {
        fromStatus: null,
        toStatus: "created",
        source: "readBack",
        sourceRef: "trace-a",
        platformDateUpdated: null,
      },
    ]);
  });

  it("then a dated snapshot moves it forward; an undated step back after that is stale", async () => {
    const id = randomUUID();
    await applySnapshot(withoutDateUpdated({ id, status: "created" }), "reconciliation");
    expect(
      await applySnapshot(snapshot({ id, status: "in_progress", dateUpdated: at(4) }), "readBack"),
    ).toEqual({
      outcome: "updated",
      previousStatus: "created",
      status: "in_progress",
    });
    // An undated earlier status read later is a step back; an undated final read later is news.
    expect(await applySnapshot(withoutDateUpdated({ id, status: "created" }), "reconciliation")).toEqual({
      outcome: "stale",
      previousStatus: "in_progress",
      status: "in_progress",
    });
    expect(await applySnapshot(withoutDateUpdated({ id, status: "success" }), "reconciliation")).toEqual({
      outcome: "updated",
      previousStatus: "in_progress",
      status: "success",
    });
    const { op, history } = await state(id);
    expect(op).toMatchObject({ status: "success", lastSource: "reconciliation" });
    expect(history.map((h) => `${h.fromStatus ?? "-"}>${h.toStatus}@${h.source}`)).toEqual([
      "->created@reconciliation",
      "created>in_progress@readBack",
      "in_progress>success@reconciliation",
    ]);
  });

  it.each([
    ["booking", "pending_retry"],
    ["pending_retry", "booking"],
  ] as const)(
    "equal dateUpdated, %s then %s (same rank): the later API read stands, with one history row",
    async (first, second) => {
      const id = randomUUID();
      await applySnapshot(snapshot({ id, status: first, dateUpdated: at(6), amount: "10" }), "readBack");
      expect(
        await applySnapshot(
          snapshot({ id, status: second, dateUpdated: at(6), amount: "11" }),
          "reconciliation",
        ),
      ).toEqual({ outcome: "updated", previousStatus: first, status: second });
      const after = await state(id);
      expect(after.op).toMatchObject({ status: second, amount: new Prisma.Decimal("11") });
      expect(after.history.map((h) => `${h.fromStatus ?? "-"}>${h.toStatus}`)).toEqual([
        `->${first}`,
        `${first}>${second}`,
      ]);
    },
  );

  it("a newer read without the payment method keeps the stored one (pay-out: method from our own request)", async () => {
    const id = randomUUID();
    const payOut = { id, typeOperation: "payOut" as const };
    await applySnapshot(snapshot({ ...payOut, status: "created", dateUpdated: at(1) }), "creation", {
      paymentMethod: "sbp",
    });
    expect((await state(id)).op.paymentMethod).toBe("sbp");
    await applySnapshot(snapshot({ ...payOut, status: "in_progress", dateUpdated: at(2) }), "readBack");
    await applySnapshot(snapshot({ ...payOut, status: "success", dateUpdated: at(3) }), "reconciliation");
    expect((await state(id)).op).toMatchObject({ status: "success", paymentMethod: "sbp" });
  });

  it("a newer pay-in read without payment details keeps the stored method", async () => {
    const id = randomUUID();
    await applySnapshot(snapshot({ id, status: "created", dateUpdated: at(1) }), "readBack");
    expect((await state(id)).op.paymentMethod).toBe("toCard");
    await applySnapshot(withoutDetails({ id, status: "in_progress", dateUpdated: at(2) }), "reconciliation");
    expect((await state(id)).op).toMatchObject({ status: "in_progress", paymentMethod: "toCard" });
  });

  it("a stale creation answer fills in only the method and the link the mirror lacks", async () => {
    // A webhook's read-back inserted the operation before the creation call returned (wire notes).
    const id = randomUUID();
    const payOut = { id, typeOperation: "payOut" as const };
    await applySnapshot(snapshot({ ...payOut, status: "in_progress", dateUpdated: at(2) }), "readBack", {
      receivedAt: t(10),
    });
    const before = (await state(id)).op;
    const link = "https://pay.example/f/1";
    const answer = {
      ...snapshot({ ...payOut, status: "created", dateUpdated: at(1), amount: "99" }),
      linkPaymentForm: link,
    };
    const options = { paymentMethod: "sbp", receivedAt: t(9) };
    expect(await applySnapshot(answer, "creation", options)).toMatchObject({ outcome: "stale" });
    expect((await state(id)).op).toEqual({ ...before, paymentMethod: "sbp", linkPaymentForm: link });
    // what the mirror has stays
    const other = { ...answer, linkPaymentForm: "https://pay.example/f/2" };
    await applySnapshot(other, "creation", { ...options, paymentMethod: "toCard" });
    expect((await state(id)).op).toMatchObject({ paymentMethod: "sbp", linkPaymentForm: link });
  });

  it("a snapshot holding text PostgreSQL cannot store is mirrored with U+FFFD in its place", async () => {
    // NUL and lone surrogates failed the write: a creation answer left its intent pending, sent again
    // every minute; a read-back failed its webhook.
    const base = snapshot({ status: "created" });
    const op: Operation = {
      ...base,
      paymentDetailsData: { ...base.paymentDetailsData!, nameMediator: "Ivan\u0000I." },
      raw: { ...base.raw, comment: "x\ud800y\u0000" },
    };
    await applySnapshot(op, "creation", { sourceRef: "t-\u0000" });
    const { op: row, history } = await state(op.id);
    expect(row.detailsNameMediator).toBe("Ivan\ufffdI.");
    expect(row.raw).toMatchObject({ comment: "x\ufffdy\ufffd" });
    expect(history.map((h) => h.sourceRef)).toEqual(["t-\ufffd"]);
  });

  it("the method in the read wins over the one given by the caller, which wins over the stored one", async () => {
    const id = randomUUID();
    await applySnapshot(snapshot({ id, status: "created", dateUpdated: at(1) }), "readBack", {
      paymentMethod: "sbp",
    });
    expect((await state(id)).op.paymentMethod).toBe("toCard");
    const payOutId = randomUUID();
    const payOut = { id: payOutId, typeOperation: "payOut" as const };
    await applySnapshot(snapshot({ ...payOut, dateUpdated: at(1) }), "readBack", { paymentMethod: "sbp" });
    await applySnapshot(snapshot({ ...payOut, status: "in_progress", dateUpdated: at(2) }), "readBack", {
      paymentMethod: "toCard",
    });
    expect((await state(payOutId)).op.paymentMethod).toBe("toCard");
  });

  it("a newer snapshot with the same status updates the row but writes no history row", async () => {
    const id = randomUUID();
    await applySnapshot(
      snapshot({ id, status: "in_progress", dateUpdated: at(1), amount: "100" }),
      "readBack",
    );
    const first = await state(id);
    const result = await applySnapshot(
      snapshot({ id, status: "in_progress", dateUpdated: at(2), amount: "100.5" }),
      "reconciliation",
    );
    expect(result).toEqual({ outcome: "updated", previousStatus: "in_progress", status: "in_progress" });
    const { op, history } = await state(id);
    expect(op.amount.toFixed()).toBe("100.5");
    expect(op.dateUpdated).toEqual(t(2));
    expect(op.lastSource).toBe("reconciliation");
    expect(op.mirroredAt.getTime()).toBeGreaterThanOrEqual(first.op.mirroredAt.getTime());
    expect(history).toHaveLength(1);
    expect(history).toEqual(first.history);
  });

  it("unchanged and conflict leave the row exactly as it was (source, mirroredAt included)", async () => {
    const id = randomUUID();
    await applySnapshot(snapshot({ id, status: "success", dateUpdated: at(5) }), "readBack");
    const before = await state(id);
    // The same final read again (unchanged) and a final of another kind (conflict). A later read that
    // differs in any other field (amounts, even its date) corrects the row: that is a repair, by design.
    for (const [s, minute] of [
      ["success", 5],
      ["failed", 9],
    ] as const) {
      await applySnapshot(snapshot({ id, status: s, dateUpdated: at(minute) }), "reconciliation");
    }
    const after = await state(id);
    expect(after.op).toEqual(before.op);
    expect(after.history).toEqual(before.history);
  });

  it("the history row carries the source, the reference and the platform's dateUpdated", async () => {
    const id = randomUUID();
    await applySnapshot(snapshot({ id, status: "created", dateUpdated: at(1) }), "reconciliation");
    await applySnapshot(snapshot({ id, status: "failed", dateUpdated: at(7) }), "readBack", {
      sourceRef: "trace-z",
    });
    const { history } = await state(id);
    expect(history[1]).toMatchObject({
      operationId: id,
      fromStatus: "created",
      toStatus: "failed",
      source: "readBack",
      sourceRef: "trace-z",
      platformDateUpdated: t(7),
    });
    expect(history[0]).toMatchObject({ sourceRef: null });
  });

  it("the stuck flag is cleared by a final status only", async () => {
    const id = randomUUID();
    const db = getDb();
    await applySnapshot(snapshot({ id, status: "created", dateUpdated: at(1) }), "readBack");
    const flagged = new Date("2027-05-04T09:00:00.000Z");
    await db.operation.update({ where: { id }, data: { stuckFlaggedAt: flagged } });
    await applySnapshot(snapshot({ id, status: "in_progress", dateUpdated: at(2) }), "readBack");
    expect((await state(id)).op.stuckFlaggedAt).toEqual(flagged);
    await applySnapshot(snapshot({ id, status: "failed", dateUpdated: at(3) }), "readBack");
    expect((await state(id)).op.stuckFlaggedAt).toBeNull();
  });

  it("inside the caller's transaction: rolled back with it", async () => {
    const id = randomUUID();
    await expect(
      withPoolTransaction(
        async (tx) => {
          await applySnapshot(snapshot({ id, status: "created" }), "readBack", { tx });
          const seen = await tx.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM "Operation" WHERE id = $1`,
            [id],
          );
          expect(seen.rows[0]?.n).toBe(1);
          throw new Error("roll back");
        },
        { statementTimeoutMs: 5_000 },
      ),
    ).rejects.toThrow("roll back");
    expect(await getDb().operation.count({ where: { id } })).toBe(0);
    expect(await getDb().operationStatusChange.count({ where: { operationId: id } })).toBe(0);
  });
});
