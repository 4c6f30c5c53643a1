// The worker's sweep of approved pay-outs whose submission job never ran (submitLostApprovals): only
// approved requests nobody holds back that have waited more than a minute, sent once each in the
// system's name, and the count it claimed. A database of its own: the sweep takes every such request.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import type { PayoutRequestStatus } from "@/lib/payouts/state";
import { submitLostApprovals, type SubmitPlatform } from "@/lib/payouts/submit";
import { isolateDatabase } from "../../support/database";
import { createStaff } from "../../support/mirror";
import { snapshot } from "../../support/operations";
import { storedPayoutRequest, setUpdatedAt } from "../../support/payouts";

let restore: () => Promise<void>;
let makerId = "";
const sent: string[] = [];

const platform = {
  createPayOut: async (request: { idTransactionMerchant: string; amount: string }) => {
    sent.push(request.idTransactionMerchant);
    return {
      operation: snapshot({
        typeOperation: "payOut",
        status: "in_progress",
        idTransactionMerchant: request.idTransactionMerchant,
        amount: request.amount,
      }),
      traceID: `trace-${request.idTransactionMerchant}`,
    };
  },
  getOperation: async () => ({ operation: null, traceID: null }),
} as unknown as SubmitPlatform;

async function request(status: PayoutRequestStatus, updatedAt: Date, lastMessage: string | null = null) {
  const row = await storedPayoutRequest(makerId, {
    status,
    lastMessage,
  });
  await setUpdatedAt(row.id, updatedAt);
  return row;
}

beforeAll(async () => {
  restore = await isolateDatabase();
  makerId = (await createStaff("finance")).id;
});
afterAll(async () => {
  await restore();
});

describe("submitLostApprovals", () => {
  it("sends only approved requests, not held back, that waited more than a minute; once each", async () => {
    const now = new Date();
    const lost = await request("approved", new Date(now.getTime() - 60_001));
    const exactlyAMinute = await request("approved", new Date(now.getTime() - 60_000));
    const heldBack = await request("approved", new Date(now.getTime() - 3_600_000), "Blocked: a duplicate.");
    const awaiting = await request("awaiting_approval", new Date(now.getTime() - 3_600_000));

    expect(await submitLostApprovals(platform, now)).toBe(1);
    expect(sent).toEqual([lost.idTransactionMerchant]);

    const db = getDb();
    const statuses = await db.payoutRequest.findMany({
      where: { id: { in: [lost.id, exactlyAMinute.id, heldBack.id, awaiting.id] } },
      select: { id: true, status: true, operationId: true },
    });
    const byId = new Map(statuses.map((s) => [s.id, s]));
    expect(byId.get(lost.id)?.status).toBe("submitted");
    expect(byId.get(lost.id)?.operationId).not.toBeNull();
    expect(byId.get(exactlyAMinute.id)?.status).toBe("approved");
    expect(byId.get(heldBack.id)?.status).toBe("approved");
    expect(byId.get(awaiting.id)?.status).toBe("awaiting_approval");

    // in the system's name
    const audits = await db.auditLog.findMany({
      where: { targetId: lost.id },
      orderBy: { id: "asc" },
      select: { action: true, actorUserId: true, actorEmail: true },
    });
    expect(audits).toEqual([
      { action: "payout.submit", actorUserId: null, actorEmail: "system" },
      { action: "payout.submitted", actorUserId: null, actorEmail: "system" },
    ]);

    // a second sweep finds nothing more to send
    expect(await submitLostApprovals(platform, now)).toBe(0);
    expect(sent).toHaveLength(1);
  });

  it("the oldest first, at most 20 a sweep", async () => {
    sent.length = 0;
    // the previous test's requests left waiting are out of this one
    await getDb().payoutRequest.updateMany({ where: { status: "approved" }, data: { status: "cancelled" } });
    const now = new Date();
    const rows = [];
    for (let i = 0; i < 21; i++)
      rows.push(await request("approved", new Date(now.getTime() - 120_000 - i * 1000)));
    expect(await submitLostApprovals(platform, now)).toBe(20);
    const newest = rows[0]!;
    expect(sent).toHaveLength(20);
    expect(sent).not.toContain(newest.idTransactionMerchant);
    expect(sent[0]).toBe(rows[20]!.idTransactionMerchant);
    expect(await submitLostApprovals(platform, now)).toBe(1);
  });
});
