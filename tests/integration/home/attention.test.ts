// Home: the counts of what needs attention, on a database of its own (the counts are global).
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { getDb } from "@/lib/db";
import { getAttention } from "@/lib/home/attention";
import { filterParams, parseOperationFilter } from "@/lib/operations/list/filter";
import { isolateDatabase } from "../../support/database";
import { createStaff, insertOperations } from "../../support/mirror";

const session = vi.hoisted(() => ({ current: null as null | { userId: string; sessionVersion: number } }));
vi.mock("@/lib/auth/config", () => ({ auth: async () => session.current }));

let restore: () => Promise<void>;
beforeAll(async () => {
  restore = await isolateDatabase();
});
afterAll(() => restore());

const now = new Date("2030-06-01T12:00:00Z");
const minutesAgo = (m: number) => new Date(now.getTime() - m * 60_000);

describe("getAttention", () => {
  it("is all zero and empty on an empty database", async () => {
    expect(await getAttention(now)).toEqual({
      approvalsWaiting: 0,
      payoutsUnanswered: 0,
      creationsUnanswered: 0,
      stuckOperations: 0,
      webhookFailures24h: 0,
      oldestUnprocessedWebhookAt: null,
      lastCompleteReconciliationAt: null,
      openDriftItems: 0,
    });
  });

  it("counts approvals, stuck operations, recent webhook failures, the oldest waiting webhook, the last run and open drift", async () => {
    const db = getDb();
    const maker = await createStaff("finance");
    const base = {
      paymentMethod: "toCard",
      bankName: "Sberbank",
      recipientNumber: "4276000000000001",
      recipientName: "Ivan",
      amount: "100",
      clientID: "c-1",
      clientIP: "203.0.113.7",
      clientDateCreated: new Date("2020-01-01"),
      makerId: maker.id,
    };
    await db.payoutRequest.createMany({
      data: [
        { ...base, idTransactionMerchant: `a-${randomUUID()}`, status: "awaiting_approval" },
        { ...base, idTransactionMerchant: `b-${randomUUID()}`, status: "awaiting_approval" },
        { ...base, idTransactionMerchant: `c-${randomUUID()}`, status: "submitted" },
        { ...base, idTransactionMerchant: "d-unanswered", status: "submitting" },
        { ...base, idTransactionMerchant: "e-pending", status: "submitting" },
      ],
    });
    // Paydesk gave up resending d's creation; e's is still resent by the background job.
    await db.creationIntent.createMany({
      data: [
        { idTransactionMerchant: "d-unanswered", kind: "payOut", request: {}, gaveUpAt: now },
        { idTransactionMerchant: "e-pending", kind: "payOut", request: {}, state: "pending" },
        // a pay-in and a payment link given up on; a pay-in still resent; a given-up one since confirmed
        { idTransactionMerchant: "f-payin", kind: "payIn", request: {}, gaveUpAt: now },
        { idTransactionMerchant: "g-link", kind: "formPrepare", request: {}, gaveUpAt: now },
        { idTransactionMerchant: "h-payin", kind: "payIn", request: {} },
        { idTransactionMerchant: "i-payin", kind: "payIn", request: {}, gaveUpAt: now, state: "rejected" },
      ],
    });
    const [stuck, stuckButFinal] = await insertOperations([
      { dateAdded: minutesAgo(600), status: "in_progress" },
      { dateAdded: minutesAgo(600), status: "success" },
      { dateAdded: minutesAgo(600), status: "created" },
    ]);
    await db.operation.updateMany({
      where: { id: { in: [stuck!, stuckButFinal!] } },
      data: { stuckFlaggedAt: now },
    });

    const delivery = (outcome: "failed" | "disagreement" | "received" | "applied", receivedAt: Date) => ({
      headers: {},
      body: "{}",
      bodyBytes: 2,
      outcome,
      receivedAt,
    });
    await db.webhookDelivery.createMany({
      data: [
        delivery("failed", minutesAgo(60)),
        delivery("disagreement", minutesAgo(120)),
        delivery("failed", minutesAgo(60 * 30)), // older than 24 h
        delivery("applied", minutesAgo(10)),
        delivery("received", minutesAgo(7)),
        delivery("received", minutesAgo(3)),
      ],
    });
    const run = await db.reconciliationRun.create({
      data: {
        kind: "incremental",
        status: "completed",
        startedAt: minutesAgo(50),
        finishedAt: minutesAgo(45),
      },
    });
    await db.reconciliationRun.create({
      data: { kind: "full", status: "failed", finishedAt: minutesAgo(5) },
    });
    await db.driftItem.createMany({
      data: [
        { runId: run.id, operationId: randomUUID(), kind: "missingInMirror", state: "open" },
        { runId: run.id, operationId: randomUUID(), kind: "statusMismatch", state: "acknowledged" },
        { runId: run.id, operationId: randomUUID(), kind: "amountMismatch", state: "resolved" },
      ],
    });

    expect(await getAttention(now)).toEqual({
      approvalsWaiting: 2,
      payoutsUnanswered: 1,
      creationsUnanswered: 2,
      stuckOperations: 1,
      webhookFailures24h: 2,
      oldestUnprocessedWebhookAt: minutesAgo(7).toISOString(),
      lastCompleteReconciliationAt: minutesAgo(45).toISOString(),
      openDriftItems: 1,
    });
  });

  it("the home page keeps the welcome heading and shows only the role's items", async () => {
    const { default: Home } = await import("@/app/(console)/page");
    const { attentionItems } = await import("@/components/home/attention-list");
    const support = await createStaff("support");
    session.current = { userId: support.id, sessionVersion: 0 };
    const html = JSON.stringify(await Home());
    expect(html).toContain("Welcome, ");
    const a = await getAttention(now);
    const keys = (may: Parameters<typeof attentionItems>[1]) => attentionItems(a, may, now).map((i) => i.key);
    expect(keys({ payouts: false, operations: true, webhooks: true, reconciliation: false })).toEqual([
      "stuck",
      "webhook-failures",
      "webhook-oldest",
    ]);
    const all = attentionItems(
      a,
      { payouts: true, operations: true, webhooks: true, reconciliation: true },
      now,
    );
    expect(all.find((i) => i.key === "approvals")).toMatchObject({ value: { count: 2 }, alert: true });
    expect(all.find((i) => i.key === "payouts-unanswered")).toMatchObject({
      value: { count: 1 },
      alert: true,
      href: "/payouts?status=submitting",
    });
    expect(all.find((i) => i.key === "creations-unanswered")).toMatchObject({
      value: { count: 2 },
      alert: true,
      href: "/reconciliation#unanswered",
    });
    // The stuck count links to the list filtered to exactly those operations.
    const stuckLink = new URL(all.find((i) => i.key === "stuck")!.href, "http://paydesk.local");
    const linked = parseOperationFilter(stuckLink.searchParams);
    expect(linked.ok && filterParams(linked.filter).toString()).toBe("tz=UTC&stuck=1");
    expect(all.find((i) => i.key === "reconciliation")).toMatchObject({
      value: { agoMs: 45 * 60_000 },
      alert: false,
    });
  });
});
