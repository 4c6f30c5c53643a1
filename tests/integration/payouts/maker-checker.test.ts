// Maker-checker and exactly-once submission against the in-process platform sandbox.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { Sandbox } from "../../../sandbox/index";
import { getDb } from "@/lib/db";
import { resolvePendingIntent } from "@/lib/operations/mirror/create-once";
import { refreshOperation } from "@/lib/operations/mirror/refresh";
import type { PlatformClient } from "@/lib/platform/client";
import { decide as recordDecision, cancelPayout } from "@/lib/payouts/approvals";
import { runSubmissionJob } from "@/lib/payouts/hand-off";
import type { Thresholds } from "@/lib/payouts/policy";
import { payoutMethodChoices } from "@/lib/payouts/method-choices";
import { createPayoutRequest } from "@/lib/payouts/requests";
import type { PayoutForm } from "@/lib/payouts/schemas";
import { submitPayout, syncSubmittingPayouts, type SubmitResult } from "@/lib/payouts/submit";
import { getPayoutDetail } from "@/lib/payouts/queries";
import { createStaff } from "../../support/mirror";
import { payoutForm } from "../../support/payouts";
import { clientFor, control, startSandbox } from "../../support/sandbox";
import type { Role as StaffRole } from "@/lib/auth/permissions";
import type { StaffActor } from "@/lib/audit/log";

// Approving hands the submission to the worker through the job queue: recorded here, and run by
// `decide` below the way the worker runs it.
const queued = vi.hoisted(() => [] as Array<{ payoutRequestId: string }>);
vi.mock("@/lib/queue/enqueue", () => ({
  enqueueTask: async (_name: string, data: { payoutRequestId: string }) => {
    queued.push(data);
    return "job";
  },
}));

let sandbox: Sandbox;
let platform: PlatformClient;
const db = getDb();
const noThresholds: Thresholds = { autoApproveBelow: null, twoApprovalsAbove: null };

type Role = Exclude<StaffRole, "support">;
const staff = {} as Record<"maker" | "approver1" | "approver2" | "approver3" | "admin", StaffActor>;

async function actor(role: Role): Promise<StaffActor> {
  const u = await createStaff(role);
  return { id: u.id, email: u.email, role };
}

beforeAll(async () => {
  sandbox = await startSandbox({ seedDemoHistory: false });
  platform = clientFor(sandbox).platform;
  await control(sandbox, "POST", "/merchants/demo/balance", { amount: "1000000" });
  staff.maker = await actor("finance");
  staff.approver1 = await actor("approver");
  staff.approver2 = await actor("approver");
  staff.approver3 = await actor("approver");
  staff.admin = await actor("admin");
});
afterAll(() => sandbox.stop());
beforeEach(() => control(sandbox, "DELETE", "/faults"));

/** A decision, then (when it completed the approvals) the worker running the submission job it queued. */
async function decide(
  id: string,
  decision: "approve" | "reject",
  comment: string,
  who: StaffActor,
  worker: { platform: PlatformClient },
) {
  const r = await recordDecision(id, decision, comment, who);
  if (!r.ok) return r;
  let submission: SubmitResult | undefined;
  if (r.queued) {
    const mine = queued.filter((job) => job.payoutRequestId === id);
    queued.splice(0, queued.length, ...queued.filter((job) => job.payoutRequestId !== id));
    [submission] = await Promise.all(mine.map((job) => runSubmissionJob(job, worker.platform)));
  }
  const { status } = await db.payoutRequest.findUniqueOrThrow({ where: { id }, select: { status: true } });
  return { ...r, status, submission };
}

async function create(f: PayoutForm, who = staff.maker, thresholds = noThresholds) {
  const created = await createPayoutRequest(f, who, { thresholds });
  if (!created.ok) throw new Error(`not created: ${created.message}`);
  return created;
}

const who = (a: StaffActor) => ({ id: a.id, email: a.email });

async function platformCount(idTransactionMerchant: string): Promise<number> {
  const { operations } = await platform.getOperationsByMerchantIdDeprecated(idTransactionMerchant);
  return operations.length;
}

async function auditActions(id: string): Promise<string[]> {
  const rows = await db.auditLog.findMany({ where: { targetId: id }, orderBy: { id: "asc" } });
  return rows.map((r) => r.action);
}

describe("maker-checker", () => {
  it("the maker cannot approve their own request, not even as admin", async () => {
    const mine = await create(payoutForm(), staff.admin);
    const r = await decide(mine.id, "approve", "looks fine", staff.admin, { platform });
    expect(r).toMatchObject({ ok: false, code: "own_request" });
    expect((await db.payoutRequest.findUniqueOrThrow({ where: { id: mine.id } })).status).toBe(
      "awaiting_approval",
    );
  });

  it("one approval by another person submits it: one platform operation, mirrored and linked", async () => {
    const req = await create(payoutForm());
    expect(req.idTransactionMerchant).toMatch(/^po-[0-9a-f-]{36}$/);
    const r = await decide(req.id, "approve", "checked the invoice", staff.approver1, { platform });
    expect(r).toMatchObject({ ok: true, status: "submitted", submission: { ok: true, status: "submitted" } });
    const row = await db.payoutRequest.findUniqueOrThrow({
      where: { id: req.id },
      include: { operation: true },
    });
    expect(row.idTransactionMerchant).toBe(req.idTransactionMerchant);
    expect(row.operation).toMatchObject({
      typeOperation: "payOut",
      status: "created",
      paymentMethod: "toCard",
    });
    expect(row.lastTraceID).toBeTruthy();
    expect(await platformCount(req.idTransactionMerchant)).toBe(1);
    expect(await auditActions(req.id)).toEqual([
      "payout.create",
      "payout.approve",
      "payout.status",
      "payout.submit",
      "payout.submitted",
    ]);
    const approval = await db.payoutApproval.findFirstOrThrow({ where: { payoutRequestId: req.id } });
    expect(approval).toMatchObject({ approverId: staff.approver1.id, comment: "checked the invoice" });
  });

  it("above the two-approvals threshold it takes two different approvers", async () => {
    const req = await create(payoutForm({ amount: "20000" }), staff.maker, {
      autoApproveBelow: null,
      twoApprovalsAbove: "10000",
    });
    expect(req.requiredApprovals).toBe(2);
    expect(await decide(req.id, "approve", "one", staff.approver1, { platform })).toMatchObject({
      ok: true,
      status: "awaiting_approval",
      approvals: 1,
      requiredApprovals: 2,
    });
    expect(await decide(req.id, "approve", "again", staff.approver1, { platform })).toMatchObject({
      ok: false,
      code: "already_decided",
    });
    expect(await platformCount(req.idTransactionMerchant)).toBe(0);
    expect(await decide(req.id, "approve", "two", staff.approver2, { platform })).toMatchObject({
      ok: true,
      status: "submitted",
    });
    expect(await platformCount(req.idTransactionMerchant)).toBe(1);
  });

  it("below the auto-approve threshold it is approved at once and the maker's submit sends it", async () => {
    const req = await create(payoutForm({ amount: "99.99" }), staff.maker, {
      autoApproveBelow: "100",
      twoApprovalsAbove: null,
    });
    expect(req).toMatchObject({ status: "approved", requiredApprovals: 0 });
    expect(await auditActions(req.id)).toContain("payout.auto_approve");
    expect(await submitPayout(req.id, who(staff.maker), platform)).toMatchObject({
      ok: true,
      status: "submitted",
    });
    expect(await platformCount(req.idTransactionMerchant)).toBe(1);
  });

  it("a rejection with a comment ends the request; later decisions are refused and nothing is sent", async () => {
    const req = await create(payoutForm());
    expect(await decide(req.id, "reject", "wrong recipient", staff.approver1, { platform })).toMatchObject({
      ok: true,
      status: "rejected",
    });
    expect(await decide(req.id, "approve", "ok", staff.approver2, { platform })).toMatchObject({
      ok: false,
      code: "not_awaiting",
    });
    expect(await submitPayout(req.id, who(staff.maker), platform)).toMatchObject({
      ok: false,
      code: "not_approved",
    });
    expect(await platformCount(req.idTransactionMerchant)).toBe(0);
  });

  it("the maker or an admin cancels before sending; others cannot; after sending nobody can", async () => {
    const a = await create(payoutForm());
    expect(await cancelPayout(a.id, staff.approver1)).toMatchObject({ ok: false, code: "not_allowed" });
    expect(await cancelPayout(a.id, staff.maker, "typo")).toEqual({ ok: true, status: "cancelled" });
    const b = await create(payoutForm());
    expect(await cancelPayout(b.id, staff.admin)).toEqual({ ok: true, status: "cancelled" });
    const c = await create(payoutForm());
    await decide(c.id, "approve", "ok", staff.approver1, { platform });
    expect(await cancelPayout(c.id, staff.maker)).toMatchObject({ ok: false, code: "too_late" });
  });

  // Audit of pay-outs, F5: every stored approval counted, also one whose approver was disabled since
  // or no longer holds payouts.approve.
  it.each([
    ["is disabled", { disabledAt: new Date() }],
    ["loses payouts.approve", { role: "finance" as const }],
  ])("an approval stops counting when its approver %s", async (_what, change) => {
    const first = await actor("approver");
    const req = await create(payoutForm({ amount: "20000" }), staff.maker, {
      autoApproveBelow: null,
      twoApprovalsAbove: "10000",
    });
    expect(await decide(req.id, "approve", "one", first, { platform })).toMatchObject({ approvals: 1 });
    await db.user.update({ where: { id: first.id }, data: change });
    expect((await getPayoutDetail(req.id, staff.approver2))?.approvals).toBe(0);
    expect(await decide(req.id, "approve", "two", staff.approver2, { platform })).toMatchObject({
      ok: true,
      status: "awaiting_approval",
      approvals: 1,
      requiredApprovals: 2,
    });
    expect(await platformCount(req.idTransactionMerchant)).toBe(0);
    expect(await decide(req.id, "approve", "three", staff.approver3, { platform })).toMatchObject({
      ok: true,
      status: "submitted",
      approvals: 2,
    });
  });

  // Review of the audit's fixes: the rules above held only while a request awaited approval; one already
  // approved (its job not yet run, or held back by the duplicate guard) was still sent.
  it.each([
    ["its approver is disabled", "approver", "approvals_lost", /of the 1 approval this pay-out needs, none/],
    ["its maker is disabled", "maker", "maker_disabled", /maker has been disabled since it was approved/],
  ] as const)(
    "an approved request is not sent once %s, by the job or by Send",
    async (_what, whose, code, words) => {
      const maker = await actor("finance");
      const approver = await actor("approver");
      const req = await create(payoutForm(), maker);
      expect(await recordDecision(req.id, "approve", "ok", approver)).toMatchObject({ status: "approved" });
      const [job] = queued.splice(0).filter((j) => j.payoutRequestId === req.id);
      await db.user.update({
        where: { id: whose === "maker" ? maker.id : approver.id },
        data: { disabledAt: new Date() },
      });
      expect(await runSubmissionJob(job!, platform)).toMatchObject({ ok: false, code });
      expect(await submitPayout(req.id, staff.admin, platform)).toMatchObject({ ok: false, code });
      expect(await platformCount(req.idTransactionMerchant)).toBe(0);
      const detail = await getPayoutDetail(req.id, staff.admin);
      expect(detail).toMatchObject({
        status: "approved",
        sending: false,
        can: { submit: false, cancel: true },
      });
      expect(detail?.note).toMatch(words);
    },
  );

  it("a second create with the same review id returns the first request (double click on Create)", async () => {
    const f = { ...payoutForm(), idTransactionMerchant: `po-${randomUUID()}` };
    const first = await create(f);
    const second = await createPayoutRequest(f, staff.maker, { thresholds: noThresholds });
    expect(second).toMatchObject({ ok: true, id: first.id, existing: true });
    expect(await db.payoutRequest.count({ where: { recipientNumber: f.recipientNumber } })).toBe(1);
  });
});

describe("exactly-once submission", () => {
  it("two approvers approving at the same moment give one approval that counts and one operation", async () => {
    const req = await create(payoutForm());
    const results = await Promise.all([
      decide(req.id, "approve", "a", staff.approver1, { platform }),
      decide(req.id, "approve", "b", staff.approver2, { platform }),
      decide(req.id, "approve", "c", staff.approver3, { platform }),
    ]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok).map((r) => !r.ok && r.code)).toEqual([
      "not_awaiting",
      "not_awaiting",
    ]);
    expect(await platformCount(req.idTransactionMerchant)).toBe(1);
    expect(await db.payoutApproval.count({ where: { payoutRequestId: req.id } })).toBe(1);
  });

  it("two required approvals arriving together submit once", async () => {
    const req = await create(payoutForm({ amount: "30000" }), staff.maker, {
      autoApproveBelow: null,
      twoApprovalsAbove: "10000",
    });
    const results = await Promise.all([
      decide(req.id, "approve", "a", staff.approver1, { platform }),
      decide(req.id, "approve", "b", staff.approver2, { platform }),
    ]);
    expect(results.every((r) => r.ok)).toBe(true);
    expect(results.filter((r) => r.ok && r.submission)).toHaveLength(1);
    expect(await platformCount(req.idTransactionMerchant)).toBe(1);
  });

  it("a double (or tenfold) submit sends once", async () => {
    const req = await create(payoutForm({ amount: "42.5" }), staff.maker, {
      autoApproveBelow: "100",
      twoApprovalsAbove: null,
    });
    const results = await Promise.all(
      Array.from({ length: 10 }, () => submitPayout(req.id, who(staff.maker), platform)),
    );
    expect(results.filter((r) => r.ok && r.status === "submitted")).toHaveLength(1);
    expect(results.filter((r) => !r.ok && r.code === "not_approved")).toHaveLength(9);
    expect(await platformCount(req.idTransactionMerchant)).toBe(1);
  });

  it("a committed creation whose answer is dropped is found again by createOnce: one operation", async () => {
    await control(sandbox, "PUT", "/faults", { commitThenDropRate: 1 });
    const req = await create(payoutForm({ amount: "66.66" }), staff.maker, {
      autoApproveBelow: "100",
      twoApprovalsAbove: null,
    });
    expect(await submitPayout(req.id, who(staff.maker), platform)).toMatchObject({
      ok: true,
      status: "submitted",
    });
    await control(sandbox, "DELETE", "/faults");
    expect(await platformCount(req.idTransactionMerchant)).toBe(1);
  });

  it("an answer lost every time leaves it submitting; a retry does not resend; the intent and the sync settle it once", async () => {
    await control(sandbox, "PUT", "/faults", { errorRate: 1, errorMode: "drop" });
    const req = await create(payoutForm({ amount: "77.77" }), staff.maker, {
      autoApproveBelow: "100",
      twoApprovalsAbove: null,
    });
    const first = await submitPayout(req.id, who(staff.maker), platform);
    expect(first).toMatchObject({ ok: true, status: "submitting" });
    expect(await submitPayout(req.id, who(staff.maker), platform)).toMatchObject({
      ok: false,
      code: "not_approved",
    });
    await syncSubmittingPayouts(platform); // other tests' requests may settle; this one must not
    expect((await db.payoutRequest.findUniqueOrThrow({ where: { id: req.id } })).status).toBe("submitting");
    await control(sandbox, "DELETE", "/faults");
    await resolvePendingIntent(platform, req.idTransactionMerchant); // what the pending-intents job does
    await syncSubmittingPayouts(platform);
    const row = await db.payoutRequest.findUniqueOrThrow({ where: { id: req.id } });
    expect(row.status).toBe("submitted");
    expect(row.operationId).toBeTruthy();
    expect(await platformCount(req.idTransactionMerchant)).toBe(1);
    expect(await auditActions(req.id)).toContain("payout.submitted");
  });
});

describe("duplicate guard", () => {
  it("blocks a second request to the same recipient and amount; an admin overrides it with a reason (audited)", async () => {
    const f = payoutForm({ amount: "3333.33" });
    await create(f);
    const again = await createPayoutRequest({ ...f, clientID: `client-${randomUUID()}` }, staff.maker, {
      thresholds: noThresholds,
    });
    expect(again).toMatchObject({ ok: false, code: "duplicate", canOverride: false });
    expect(again.ok ? "" : again.message).toMatch(/already awaiting approval/);
    const financeOverride = await createPayoutRequest({ ...f, overrideReason: "I know" }, staff.maker, {
      thresholds: noThresholds,
    });
    expect(financeOverride).toMatchObject({ ok: false, code: "override_forbidden" });
    const adminTry = await createPayoutRequest(f, staff.admin, { thresholds: noThresholds });
    expect(adminTry).toMatchObject({ ok: false, code: "duplicate", canOverride: true });
    const overridden = await create(
      { ...f, overrideReason: "Second instalment agreed with the client" },
      staff.admin,
    );
    const row = await db.payoutRequest.findUniqueOrThrow({ where: { id: overridden.id } });
    expect(row.overrideReason).toBe("Second instalment agreed with the client");
    const entry = await db.auditLog.findFirstOrThrow({
      where: { targetId: overridden.id, action: "payout.duplicate_override" },
    });
    expect(entry.actorUserId).toBe(staff.admin.id);
    expect(entry.after).toMatchObject({ reason: "Second instalment agreed with the client" });
  });

  it("an earlier pay-out in pending_retry blocks creation and submission (spec: no new operation while pending_retry)", async () => {
    const f = payoutForm({ amount: "4444.44" });
    const waiting = await create(f); // created before the other one goes to pending_retry
    const first = await create({ ...f, overrideReason: "split in two on purpose" }, staff.admin);
    await decide(first.id, "approve", "ok", staff.approver1, { platform });
    const { operationId } = await db.payoutRequest.findUniqueOrThrow({ where: { id: first.id } });
    await control(sandbox, "POST", `/operations/${operationId}/status`, { status: "pending_retry" });
    await refreshOperation(operationId!, staff.maker.id, platform);

    const blocked = await createPayoutRequest({ ...f, clientID: `client-${randomUUID()}` }, staff.maker, {
      thresholds: noThresholds,
    });
    expect(blocked).toMatchObject({ ok: false, code: "duplicate" });
    expect(blocked.ok ? "" : blocked.message).toMatch(/pending_retry/);

    const r = await decide(waiting.id, "approve", "ok", staff.approver2, { platform });
    expect(r).toMatchObject({
      ok: true,
      status: "approved",
      submission: { ok: false, code: "blocked_duplicate" },
    });
    const row = await db.payoutRequest.findUniqueOrThrow({ where: { id: waiting.id } });
    expect(row).toMatchObject({ status: "approved", operationId: null });
    expect(row.lastMessage).toMatch(/pending_retry/);
    expect(await platformCount(waiting.idTransactionMerchant)).toBe(0);

    // once the earlier one is in progress and then final, the approved one can go
    await control(sandbox, "POST", `/operations/${operationId}/status`, { status: "in_progress" });
    await control(sandbox, "POST", `/operations/${operationId}/status`, { status: "success" });
    await refreshOperation(operationId!, staff.maker.id, platform);
    expect(await submitPayout(waiting.id, who(staff.maker), platform)).toMatchObject({
      ok: true,
      status: "submitted",
    });
  });
});

describe("platform refusals are stored and shown in words with the traceID", () => {
  async function refused(f: PayoutForm) {
    const req = await create(f);
    const r = await decide(req.id, "approve", "ok", staff.approver1, { platform });
    expect(r).toMatchObject({ ok: true, status: "failed_to_submit" });
    const detail = await getPayoutDetail(req.id, { id: staff.maker.id, role: "finance" });
    expect(detail?.error?.traceID).toMatch(/[0-9a-f-]{36}/);
    expect(detail?.error?.traceID).toBe(detail?.lastTraceID);
    expect(await platformCount(req.idTransactionMerchant)).toBe(0);
    return detail!.error!;
  }

  it("notEnoughMoneyOnBalance with the required and available amounts", async () => {
    const error = await refused(payoutForm({ amount: "999999999999" }));
    expect(error.code).toBe("notEnoughMoneyOnBalance");
    expect(error.message).toMatch(/it needs [\d,.]+\u00a0USDT, the balance has [\d,.]+\u00a0USDT/);
  });

  it("noSuitableTariffForRequest names the method, and the form stops offering it", async () => {
    await control(sandbox, "PATCH", "/merchants/demo", {
      tariff: { payOut: ["toCard", "sbp", "toAccount", "sber_sber"] },
    });
    try {
      const error = await refused(payoutForm({ paymentMethod: "psb_psb" }));
      expect(error.code).toBe("noSuitableTariffForRequest");
      expect(error.message).toMatch(/psb_psb is not in the merchant's tariff/);
      const choices = await payoutMethodChoices();
      expect(choices.allowed).not.toContain("psb_psb");
      expect(choices.notInTariff.map((m) => m.method)).toContain("psb_psb");
    } finally {
      await control(sandbox, "PATCH", "/merchants/demo", {
        tariff: {
          payOut: [
            "toCard",
            "sbp",
            "toAccount",
            "sber_sber",
            "tbank_tbank",
            "alfa_alfa",
            "vtb_vtb",
            "ozon_ozon",
            "gazprom_gazprom",
            "psb_psb",
            "raif_raif",
          ],
        },
      });
    }
  });

  it("fraud (client rate exceeded: the form refuses dummy data before the platform sees it)", async () => {
    await control(sandbox, "PATCH", "/merchants/demo", { fraudRatePerMinute: 1 });
    try {
      const clientID = `client-${randomUUID()}`;
      const ok = await create(payoutForm({ clientID }));
      await decide(ok.id, "approve", "ok", staff.approver1, { platform });
      const error = await refused(payoutForm({ clientID }));
      expect(error.code).toBe("fraud");
      expect(error.message).toMatch(/anti-fraud/);
    } finally {
      await control(sandbox, "PATCH", "/merchants/demo", { fraudRatePerMinute: 30 });
    }
  });

  it("invalidRequestParameters names the field (a stored row the platform refuses)", async () => {
    const req = await create(payoutForm());
    await db.payoutRequest.update({ where: { id: req.id }, data: { recipientNumber: "12345" } });
    const r = await decide(req.id, "approve", "ok", staff.approver1, { platform });
    expect(r).toMatchObject({ ok: true, status: "failed_to_submit" });
    const detail = await getPayoutDetail(req.id, { id: staff.maker.id, role: "finance" });
    expect(detail?.error).toMatchObject({ code: "invalidRequestParameters" });
    expect(detail?.error?.message).toMatch(/field number/);
    expect(detail?.error?.traceID).toBeTruthy();
  });
});
