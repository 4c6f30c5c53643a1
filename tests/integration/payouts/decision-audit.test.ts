// The audit trail of every pay-out decision path, entry by entry: action name, actor (id, email, IP),
// target, and the before/after contents. Asserted right after the decision; whether the platform
// submission happens inside the approval or later is not looked at here (submission is driven
// explicitly through submitPayout where its own entries are checked).
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Sandbox } from "../../../sandbox/index";
import { getDb } from "@/lib/db";
import type { PlatformClient } from "@/lib/platform/client";
import { cancelPayout, decide } from "@/lib/payouts/approvals";
import type { StaffActor as PayoutActor } from "@/lib/audit/log";
import type { Thresholds } from "@/lib/payouts/policy";
import { createPayoutRequest } from "@/lib/payouts/requests";
import type { PayoutForm } from "@/lib/payouts/schemas";
import { submitPayout } from "@/lib/payouts/submit";
import { auditTrail, by, payoutActor, payoutForm } from "../../support/payouts";
import { clientFor, control, startSandbox } from "../../support/sandbox";

let sandbox: Sandbox;
let platform: PlatformClient;
const db = getDb();
const noThresholds: Thresholds = { autoApproveBelow: null, twoApprovalsAbove: null };
let maker: PayoutActor;
let approver1: PayoutActor;
let approver2: PayoutActor;
let admin: PayoutActor;

beforeAll(async () => {
  sandbox = await startSandbox({ seedDemoHistory: false });
  platform = clientFor(sandbox).platform;
  // Wherever the submission runs (inside the approval or in a job), it talks to this sandbox.
  (globalThis as { paydeskPlatform?: unknown }).paydeskPlatform = platform;
  await control(sandbox, "POST", "/merchants/demo/balance", { amount: "1000000" });
  maker = await payoutActor("finance", "198.51.100.7");
  approver1 = await payoutActor("approver", "198.51.100.21");
  approver2 = await payoutActor("approver", "198.51.100.22");
  admin = await payoutActor("admin", "198.51.100.1");
});
afterAll(() => sandbox.stop());

async function create(f: PayoutForm, who = maker, thresholds = noThresholds) {
  const created = await createPayoutRequest(f, who, { thresholds });
  if (!created.ok) throw new Error(`not created: ${created.message}`);
  return created;
}

const masked = (n: string) => `${"*".repeat(n.length - 4)}${n.slice(-4)}`;
const statusOf = async (id: string) => (await db.payoutRequest.findUniqueOrThrow({ where: { id } })).status;

describe("creation", () => {
  it("payout.create: who, what (recipient masked), the approvals needed and the thresholds applied", async () => {
    const f = payoutForm({ amount: "20000.5" });
    const thresholds = { autoApproveBelow: "100", twoApprovalsAbove: "10000" };
    const req = await create(f, maker, thresholds);
    const trail = await auditTrail(req.id);
    expect(trail).toHaveLength(1);
    expect(trail[0]).toMatchObject({ action: "payout.create", before: null, ...by(maker, req.id) });
    expect(trail[0]!.after).toMatchObject({
      status: "awaiting_approval",
      idTransactionMerchant: req.idTransactionMerchant,
      paymentMethod: "toCard",
      bankName: "Сбербанк",
      recipientNumber: masked(f.recipientNumber),
      amount: "20000.5",
      requiredApprovals: 2,
      thresholds: { autoApproveBelow: "100", twoApprovalsAbove: "10000" },
    });
    expect(JSON.stringify(trail)).not.toContain(f.recipientNumber);
  });

  it("auto-approve: payout.create (approved, no approval needed), then payout.auto_approve from draft", async () => {
    const req = await create(payoutForm({ amount: "99.99" }), maker, {
      autoApproveBelow: "100",
      twoApprovalsAbove: null,
    });
    expect(req).toMatchObject({ status: "approved", requiredApprovals: 0 });
    const trail = await auditTrail(req.id);
    expect(trail.map((r) => r.action)).toEqual(["payout.create", "payout.auto_approve"]);
    expect(trail[0]!.after).toMatchObject({ status: "approved", requiredApprovals: 0 });
    expect(trail[1]).toMatchObject({
      ...by(maker, req.id),
      before: { status: "draft" },
      after: { status: "approved", autoApproveBelow: "100" },
    });
  });

  it("no auto-approve entry for a request that needs an approval", async () => {
    const req = await create(payoutForm({ amount: "100" }), maker, {
      autoApproveBelow: "100",
      twoApprovalsAbove: null,
    });
    expect(req.status).toBe("awaiting_approval");
    expect((await auditTrail(req.id)).map((r) => r.action)).toEqual(["payout.create"]);
  });

  it("duplicate override by an admin: payout.create then payout.duplicate_override with the reason and what it overrode", async () => {
    const f = payoutForm({ amount: "3210.5" });
    const first = await create(f);
    const reason = "Second instalment agreed with the client";
    const second = await create({ ...f, clientID: `client-${randomUUID()}`, overrideReason: reason }, admin);
    const trail = await auditTrail(second.id);
    expect(trail.map((r) => r.action)).toEqual(["payout.create", "payout.duplicate_override"]);
    expect(trail[1]).toEqual({
      action: "payout.duplicate_override",
      ...by(admin, second.id),
      before: null,
      after: {
        reason,
        duplicates: [
          {
            kind: "request",
            payoutRequestId: first.id,
            status: "awaiting_approval",
            idTransactionMerchant: first.idTransactionMerchant,
          },
        ],
      },
    });
    expect((await db.payoutRequest.findUniqueOrThrow({ where: { id: second.id } })).overrideReason).toBe(
      reason,
    );
  });

  it("an override reason given when nothing is duplicated is neither stored nor audited", async () => {
    const req = await create({ ...payoutForm(), overrideReason: "just in case" }, admin);
    expect((await auditTrail(req.id)).map((r) => r.action)).toEqual(["payout.create"]);
    expect((await db.payoutRequest.findUniqueOrThrow({ where: { id: req.id } })).overrideReason).toBeNull();
  });
});

describe("decisions", () => {
  it("reject: payout.reject with the comment, then payout.status awaiting_approval -> rejected, by the approver", async () => {
    const req = await create(payoutForm());
    const result = await decide(req.id, "reject", "wrong recipient", approver1);
    expect(result).toEqual({ ok: true, status: "rejected", approvals: 0, requiredApprovals: 1 });
    const trail = (await auditTrail(req.id)).slice(1);
    expect(trail).toEqual([
      {
        action: "payout.reject",
        ...by(approver1, req.id),
        before: null,
        after: { decision: "reject", comment: "wrong recipient" },
      },
      {
        action: "payout.status",
        ...by(approver1, req.id),
        before: { status: "awaiting_approval" },
        after: { status: "rejected", approvals: 0, requiredApprovals: 1 },
      },
    ]);
    expect(await statusOf(req.id)).toBe("rejected");
    expect(await db.payoutApproval.findMany({ where: { payoutRequestId: req.id } })).toMatchObject([
      { approverId: approver1.id, decision: "reject", comment: "wrong recipient" },
    ]);
  });

  it("reject after one of two approvals: the earlier approval is counted in the status entry", async () => {
    const req = await create(payoutForm({ amount: "20000" }), maker, {
      autoApproveBelow: null,
      twoApprovalsAbove: "10000",
    });
    await decide(req.id, "approve", "fine by me", approver1);
    const result = await decide(req.id, "reject", "not this month", approver2);
    expect(result).toEqual({ ok: true, status: "rejected", approvals: 1, requiredApprovals: 2 });
    const trail = (await auditTrail(req.id)).slice(1);
    expect(trail.map((r) => [r.action, r.actorUserId])).toEqual([
      ["payout.approve", approver1.id],
      ["payout.reject", approver2.id],
      ["payout.status", approver2.id],
    ]);
    expect(trail[2]).toMatchObject({
      before: { status: "awaiting_approval" },
      after: { status: "rejected", approvals: 1, requiredApprovals: 2 },
    });
  });

  it("the first of two approvals: only payout.approve, the status stays awaiting_approval", async () => {
    const req = await create(payoutForm({ amount: "20000" }), maker, {
      autoApproveBelow: null,
      twoApprovalsAbove: "10000",
    });
    const result = await decide(req.id, "approve", "one of two", approver1);
    expect(result).toEqual({ ok: true, status: "awaiting_approval", approvals: 1, requiredApprovals: 2 });
    expect((await auditTrail(req.id)).slice(1)).toEqual([
      {
        action: "payout.approve",
        ...by(approver1, req.id),
        before: null,
        after: { decision: "approve", comment: "one of two" },
      },
    ]);
    expect(await statusOf(req.id)).toBe("awaiting_approval");
  });

  it("the approval that completes the set: payout.approve, then payout.status awaiting_approval -> approved", async () => {
    const req = await create(payoutForm({ amount: "20000" }), maker, {
      autoApproveBelow: null,
      twoApprovalsAbove: "10000",
    });
    await decide(req.id, "approve", "one", approver1);
    const result = await decide(req.id, "approve", "two", approver2);
    expect(result).toMatchObject({ ok: true, approvals: 2, requiredApprovals: 2 });
    // entries 0-1: creation and the first approval; what follows the status entry is the submission's
    const trail = (await auditTrail(req.id)).slice(2, 4);
    expect(trail).toEqual([
      {
        action: "payout.approve",
        ...by(approver2, req.id),
        before: null,
        after: { decision: "approve", comment: "two" },
      },
      {
        action: "payout.status",
        ...by(approver2, req.id),
        before: { status: "awaiting_approval" },
        after: { status: "approved", approvals: 2, requiredApprovals: 2 },
      },
    ]);
    expect(["approved", "submitting", "submitted"]).toContain(await statusOf(req.id));
  });

  it("a single required approval completes at once", async () => {
    const req = await create(payoutForm());
    expect(await decide(req.id, "approve", "ok", approver1)).toMatchObject({
      ok: true,
      approvals: 1,
      requiredApprovals: 1,
    });
    expect((await auditTrail(req.id)).slice(1, 3).map((r) => [r.action, r.before, r.after])).toEqual([
      ["payout.approve", null, { decision: "approve", comment: "ok" }],
      [
        "payout.status",
        { status: "awaiting_approval" },
        { status: "approved", approvals: 1, requiredApprovals: 1 },
      ],
    ]);
  });
});

describe("cancellation", () => {
  it("by the maker, with a comment: payout.cancel awaiting_approval -> cancelled", async () => {
    const req = await create(payoutForm());
    expect(await cancelPayout(req.id, maker, "typo in the name")).toEqual({ ok: true, status: "cancelled" });
    expect((await auditTrail(req.id)).slice(1)).toEqual([
      {
        action: "payout.cancel",
        ...by(maker, req.id),
        before: { status: "awaiting_approval" },
        after: { status: "cancelled", comment: "typo in the name" },
      },
    ]);
    expect(await statusOf(req.id)).toBe("cancelled");
  });

  it("by an admin, without a comment, of an auto-approved request: before approved, comment null", async () => {
    const req = await create(payoutForm({ amount: "10" }), maker, {
      autoApproveBelow: "100",
      twoApprovalsAbove: null,
    });
    expect(await cancelPayout(req.id, admin)).toEqual({ ok: true, status: "cancelled" });
    const trail = await auditTrail(req.id);
    expect(trail.map((r) => r.action)).toEqual(["payout.create", "payout.auto_approve", "payout.cancel"]);
    expect(trail[2]).toEqual({
      action: "payout.cancel",
      ...by(admin, req.id),
      before: { status: "approved" },
      after: { status: "cancelled", comment: null },
    });
  });
});

describe("submission, driven explicitly", () => {
  it("payout.submit (approved -> submitting) then payout.submitted with the operation and traceID", async () => {
    const req = await create(payoutForm({ amount: "42.5" }), maker, {
      autoApproveBelow: "100",
      twoApprovalsAbove: null,
    });
    const actor = { id: maker.id, email: maker.email, ip: "198.51.100.99" };
    const sent = await submitPayout(req.id, actor, platform);
    expect(sent).toMatchObject({ ok: true, status: "submitted" });
    if (!sent.ok || sent.status !== "submitted") throw new Error("not submitted");
    const trail = (await auditTrail(req.id)).slice(2);
    const who = {
      actorUserId: maker.id,
      actorEmail: maker.email,
      ip: "198.51.100.99",
      targetType: "payoutRequest",
      targetId: req.id,
    };
    expect(trail).toEqual([
      {
        action: "payout.submit",
        ...who,
        before: { status: "approved" },
        after: { status: "submitting", idTransactionMerchant: req.idTransactionMerchant },
      },
      {
        action: "payout.submitted",
        ...who,
        before: { status: "submitting" },
        after: { status: "submitted", operationId: sent.operationId, traceID: sent.traceID },
      },
    ]);
    const row = await db.payoutRequest.findUniqueOrThrow({ where: { id: req.id } });
    expect(row).toMatchObject({
      status: "submitted",
      operationId: sent.operationId,
      lastTraceID: sent.traceID,
      lastCodeError: null,
      lastMessage: null,
    });
    expect(row.submittedAt).toBeInstanceOf(Date);
    expect(sent.traceID).toBeTruthy();
  });

  it("a platform refusal: payout.failed_to_submit with the code and traceID; the request keeps them", async () => {
    const req = await create(payoutForm({ amount: "999999999999" }), maker, {
      autoApproveBelow: "1000000000000",
      twoApprovalsAbove: null,
    });
    const actor = { id: maker.id, email: maker.email, ip: null };
    const sent = await submitPayout(req.id, actor, platform);
    expect(sent).toMatchObject({
      ok: false,
      code: "failed_to_submit",
      error: { code: "notEnoughMoneyOnBalance", codeError: "notEnoughMoneyOnBalance" },
    });
    const row = await db.payoutRequest.findUniqueOrThrow({ where: { id: req.id } });
    expect(row).toMatchObject({ status: "failed_to_submit", lastCodeError: "notEnoughMoneyOnBalance" });
    expect(row.lastTraceID).toBeTruthy();
    expect(row.lastMessage).toBeTruthy();
    const trail = (await auditTrail(req.id)).slice(2);
    expect(trail.map((r) => r.action)).toEqual(["payout.submit", "payout.failed_to_submit"]);
    expect(trail[1]).toMatchObject({
      actorUserId: maker.id,
      before: { status: "submitting" },
      after: {
        status: "failed_to_submit",
        codeError: "notEnoughMoneyOnBalance",
        traceID: row.lastTraceID,
      },
    });
  });
});

describe("refused decisions leave no audit entry and no approval", () => {
  it.each([
    [
      "the maker (a finance user, who may not approve at all) deciding on their own request",
      async (id: string) => decide(id, "approve", "mine", maker),
      "forbidden",
    ],
    [
      "a decision on a request that was cancelled",
      async (id: string) => {
        await cancelPayout(id, maker);
        return decide(id, "approve", "late", approver1);
      },
      "not_awaiting",
    ],
    [
      "a cancel by someone who is neither the maker nor an admin",
      async (id: string) => cancelPayout(id, approver1),
      "not_allowed",
    ],
  ] as const)("%s", async (_name, act, code) => {
    const req = await create(payoutForm());
    const before = await auditTrail(req.id);
    const result = await act(req.id);
    expect(result).toMatchObject({ ok: false, code });
    const after = await auditTrail(req.id);
    expect(after.filter((r) => r.action !== "payout.cancel")).toEqual(before);
    expect(await db.payoutApproval.count({ where: { payoutRequestId: req.id } })).toBe(0);
  });
});
