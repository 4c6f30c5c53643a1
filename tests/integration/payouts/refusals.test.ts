// Every refusal branch of pay-out creation, decision, cancellation and submission, run at least once:
// the typed code, the message, and that nothing was written (no row, no approval, no audit entry, no
// platform call). Races that the row lock makes rare are provoked inside the transaction itself.
import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { Sandbox } from "../../../sandbox/index";
import { getDb } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { PlatformClient } from "@/lib/platform/client";
import type { InMemoryRecorder } from "../../support/in-memory-recorder";
import { cancelPayout, decide } from "@/lib/payouts/approvals";
import type { StaffActor as PayoutActor } from "@/lib/audit/log";
import type { Thresholds } from "@/lib/payouts/policy";
import { createPayoutRequest } from "@/lib/payouts/requests";
import type { PayoutForm } from "@/lib/payouts/schemas";
import type { PayoutRequestStatus } from "@/lib/payouts/state";
import { submitPayout } from "@/lib/payouts/submit";
import { insertOperations } from "../../support/mirror";
import { freshCard } from "../../support/cards";
import { auditTrail, payoutActor, payoutForm } from "../../support/payouts";
import { clientFor, control, startSandbox } from "../../support/sandbox";

let sandbox: Sandbox;
let platform: PlatformClient;
let recorder: InMemoryRecorder;
const db = getDb();
const noThresholds: Thresholds = { autoApproveBelow: null, twoApprovalsAbove: null };
const autoBelow100: Thresholds = { autoApproveBelow: "100", twoApprovalsAbove: null };
let maker: PayoutActor;
let otherMaker: PayoutActor;
let approver: PayoutActor;
let admin: PayoutActor;
let support: PayoutActor;

beforeAll(async () => {
  sandbox = await startSandbox({ seedDemoHistory: false });
  ({ platform, recorder } = clientFor(sandbox));
  (globalThis as { paydeskPlatform?: unknown }).paydeskPlatform = platform;
  await control(sandbox, "POST", "/merchants/demo/balance", { amount: "1000000" });
  maker = await payoutActor("finance");
  otherMaker = await payoutActor("finance");
  approver = await payoutActor("approver");
  admin = await payoutActor("admin");
  support = await payoutActor("support");
});
afterAll(() => sandbox.stop());
afterEach(() => vi.restoreAllMocks());

async function create(f: PayoutForm, who = maker, thresholds = noThresholds) {
  const created = await createPayoutRequest(f, who, { thresholds });
  if (!created.ok) throw new Error(`not created: ${created.message}`);
  return created;
}

const row = (id: string) => db.payoutRequest.findUniqueOrThrow({ where: { id } });
const setStatus = (id: string, status: PayoutRequestStatus) =>
  db.payoutRequest.update({ where: { id }, data: { status } });
const payoutCalls = () => recorder.calls.filter((c) => c.path.includes("/host2host/payout"));

/**
 * Runs the next `$transaction` of the shared client with `payoutRequest.updateMany` preceded by
 * `interleave` (same transaction, so it holds the row lock): what another writer would have done
 * between this transaction's read and its conditional update.
 */
function interleaveBeforeUpdateMany(interleave: (tx: Prisma.TransactionClient) => Promise<unknown>) {
  const original = db.$transaction.bind(db) as (fn: unknown, options?: unknown) => Promise<unknown>;
  return vi.spyOn(db, "$transaction").mockImplementationOnce(((
    fn: (tx: Prisma.TransactionClient) => Promise<unknown>,
    options?: unknown,
  ) =>
    original(async (tx: Prisma.TransactionClient) => {
      const delegate = tx.payoutRequest;
      const payoutRequest = new Proxy(delegate, {
        get(target, prop) {
          if (prop === "updateMany")
            return async (args: Prisma.PayoutRequestUpdateManyArgs) => {
              await interleave(tx);
              return target.updateMany(args);
            };
          const value = Reflect.get(target, prop) as unknown;
          return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
        },
      });
      const proxied = new Proxy(tx, {
        get(target, prop) {
          if (prop === "payoutRequest") return payoutRequest;
          const value = Reflect.get(target, prop) as unknown;
          return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
        },
      });
      return fn(proxied);
    }, options)) as never);
}

describe("creation with an idTransactionMerchant that is already taken", () => {
  it.each([
    ["by another maker", (f: PayoutForm) => ({ form: f, who: () => otherMaker })],
    [
      "for another recipient",
      (f: PayoutForm) => ({ form: { ...f, recipientNumber: freshCard() }, who: () => maker }),
    ],
    ["for another amount", (f: PayoutForm) => ({ form: { ...f, amount: "1500.26" }, who: () => maker })],
  ])("%s: id_taken, nothing created or audited", async (_name, variant) => {
    const f = { ...payoutForm(), idTransactionMerchant: `po-${randomUUID()}` };
    const first = await create(f);
    const { form, who } = variant(f);
    const second = await createPayoutRequest(form, who(), { thresholds: noThresholds });
    expect(second).toEqual({
      ok: false,
      code: "id_taken",
      message: "This merchant id is already used by another request.",
    });
    expect(await db.payoutRequest.count({ where: { idTransactionMerchant: f.idTransactionMerchant } })).toBe(
      1,
    );
    expect(await db.payoutRequest.count({ where: { recipientNumber: form.recipientNumber } })).toBe(
      form.recipientNumber === f.recipientNumber ? 1 : 0,
    );
    expect((await auditTrail(first.id)).map((r) => r.action)).toEqual(["payout.create"]);
  });

  it("the same maker, recipient and amount (written differently) gets the first request back, as it was stored", async () => {
    const f = { ...payoutForm({ amount: "1500.25" }), idTransactionMerchant: `po-${randomUUID()}` };
    const first = await create(f, maker, noThresholds);
    // other thresholds now: the stored request's approvals and status are returned, not recomputed
    const again = await createPayoutRequest({ ...f, amount: "1500.2500" }, maker, {
      thresholds: { autoApproveBelow: "100000", twoApprovalsAbove: null },
    });
    expect(again).toEqual({
      ok: true,
      id: first.id,
      idTransactionMerchant: f.idTransactionMerchant,
      status: "awaiting_approval",
      requiredApprovals: 1,
      existing: true,
    });
    expect((await auditTrail(first.id)).map((r) => r.action)).toEqual(["payout.create"]);
  });

  // Audit of pay-outs, F6: creations with one id for different recipients at the same moment took
  // different recipient locks; the loser's insert broke the unique index and threw (P2002, a 500).
  it("at the same moment, for different recipients: one is created, the others get id_taken", async () => {
    for (let round = 0; round < 5; round++) {
      const idTransactionMerchant = `po-${randomUUID()}`;
      const forms = Array.from({ length: 6 }, () => ({ ...payoutForm(), idTransactionMerchant }));
      const results = await Promise.allSettled(
        forms.map((f) => createPayoutRequest(f, maker, { thresholds: noThresholds })),
      );
      const outcomes = results.map((r) =>
        r.status === "rejected" ? `threw ${String(r.reason)}` : r.value.ok ? "created" : r.value.code,
      );
      expect(outcomes.sort()).toEqual(["created", ...Array<string>(5).fill("id_taken")]);
      expect(await db.payoutRequest.count({ where: { idTransactionMerchant } })).toBe(1);
    }
  });
});

describe("creation blocked by the duplicate guard", () => {
  it("a finance user: duplicate, not overridable, with the reason in words", async () => {
    const f = payoutForm({ amount: "2718.28" });
    await create(f);
    const again = await createPayoutRequest({ ...f, clientID: `client-${randomUUID()}` }, maker, {
      thresholds: noThresholds,
    });
    expect(again).toMatchObject({
      ok: false,
      code: "duplicate",
      canOverride: false,
      message:
        "Blocked: a pay-out request to this recipient for this amount is already awaiting approval. A second one could pay twice. An admin can override this with a reason.",
    });
  });

  it("a twin sent a moment ago, its operation still created on the platform: duplicate (F3), nothing created", async () => {
    const f = payoutForm({ amount: "2718.31" });
    const first = await create(f);
    const [operationId] = await insertOperations([
      { dateAdded: new Date(), typeOperation: "payOut", status: "created", paymentMethod: "toCard" },
    ]);
    await db.payoutRequest.update({ where: { id: first.id }, data: { status: "submitted", operationId } });
    expect(
      await createPayoutRequest({ ...f, clientID: `client-${randomUUID()}` }, maker, {
        thresholds: noThresholds,
      }),
    ).toMatchObject({
      ok: false,
      code: "duplicate",
      duplicates: [{ kind: "operation", operationId, status: "created", payoutRequestId: first.id }],
      message:
        "Blocked: a pay-out to this recipient for this amount was accepted by the platform and is not finished yet. A second one could pay twice. An admin can override this with a reason.",
    });
    expect(await db.payoutRequest.count({ where: { recipientNumber: f.recipientNumber } })).toBe(1);
  });

  it("an admin without a reason: duplicate, overridable", async () => {
    const f = payoutForm({ amount: "2718.29" });
    await create(f);
    expect(await createPayoutRequest(f, admin, { thresholds: noThresholds })).toMatchObject({
      ok: false,
      code: "duplicate",
      canOverride: true,
    });
  });

  it("a finance user with a reason: override_forbidden, nothing created", async () => {
    const f = payoutForm({ amount: "2718.30" });
    await create(f);
    expect(
      await createPayoutRequest({ ...f, overrideReason: "I know" }, maker, { thresholds: noThresholds }),
    ).toEqual({
      ok: false,
      code: "override_forbidden",
      message: "Only an admin can override the duplicate block.",
    });
    expect(await db.payoutRequest.count({ where: { recipientNumber: f.recipientNumber } })).toBe(1);
  });
});

describe("decisions refused", () => {
  it("not found", async () => {
    expect(await decide(randomUUID(), "approve", "ok", approver)).toEqual({
      ok: false,
      code: "not_found",
      message: "No such pay-out request.",
    });
  });

  it("own request (checked before anything else, even on a request that no longer takes decisions)", async () => {
    // An admin may approve, so what refuses them here is that the request is their own.
    const req = await create(payoutForm(), admin);
    await setStatus(req.id, "rejected");
    expect(await decide(req.id, "reject", "mine", admin)).toEqual({
      ok: false,
      code: "own_request",
      message: "You created this pay-out; another person must approve or reject it.",
    });
  });

  it("already decided (checked before the status): a second decision by the same approver", async () => {
    const req = await create(payoutForm({ amount: "20000" }), maker, {
      autoApproveBelow: null,
      twoApprovalsAbove: "10000",
    });
    await decide(req.id, "approve", "first", approver);
    const reject = await decide(req.id, "reject", "changed my mind", approver);
    expect(reject).toEqual({
      ok: false,
      code: "already_decided",
      message: "You have already decided on this pay-out.",
    });
    await setStatus(req.id, "cancelled");
    expect(await decide(req.id, "approve", "again", approver)).toMatchObject({ code: "already_decided" });
    expect(await db.payoutApproval.findMany({ where: { payoutRequestId: req.id } })).toMatchObject([
      { approverId: approver.id, decision: "approve", comment: "first" },
    ]);
  });

  it.each([
    ["rejected", "This pay-out is rejected; it no longer takes decisions."],
    ["approved", "This pay-out is approved; it no longer takes decisions."],
    ["failed_to_submit", "This pay-out is failed to submit; it no longer takes decisions."],
  ] as const)("not awaiting approval (%s), with the status in words", async (status, message) => {
    const req = await create(payoutForm());
    await setStatus(req.id, status);
    expect(await decide(req.id, "approve", "ok", approver)).toEqual({
      ok: false,
      code: "not_awaiting",
      message,
    });
    expect(await db.payoutApproval.count({ where: { payoutRequestId: req.id } })).toBe(0);
    expect((await row(req.id)).status).toBe(status);
    expect((await auditTrail(req.id)).map((r) => r.action)).toEqual(["payout.create"]);
  });
});

describe("cancellation refused", () => {
  it("not found", async () => {
    expect(await cancelPayout(randomUUID(), admin)).toEqual({
      ok: false,
      code: "not_found",
      message: "No such pay-out request.",
    });
  });

  it.each([
    ["another finance user", () => otherMaker],
    ["an approver", () => approver],
    ["support", () => support],
  ])("neither the maker nor an admin: %s", async (_name, who) => {
    const req = await create(payoutForm());
    expect(await cancelPayout(req.id, who())).toEqual({
      ok: false,
      code: "not_allowed",
      message: "Only the maker or an admin can cancel this pay-out.",
    });
    expect((await row(req.id)).status).toBe("awaiting_approval");
  });

  it.each([
    ["submitting", "This pay-out is submitting; only requests not yet sent can be cancelled."],
    ["submitted", "This pay-out is submitted; only requests not yet sent can be cancelled."],
    ["rejected", "This pay-out is rejected; only requests not yet sent can be cancelled."],
    ["cancelled", "This pay-out is cancelled; only requests not yet sent can be cancelled."],
    ["failed_to_submit", "This pay-out is failed to submit; only requests not yet sent can be cancelled."],
  ] as const)("too late once %s", async (status, message) => {
    const req = await create(payoutForm());
    await setStatus(req.id, status);
    expect(await cancelPayout(req.id, maker)).toEqual({ ok: false, code: "too_late", message });
    expect((await row(req.id)).status).toBe(status);
    expect((await auditTrail(req.id)).map((r) => r.action)).toEqual(["payout.create"]);
  });

  it.each(["draft", "awaiting_approval", "approved"] as const)(
    "a %s request can be cancelled",
    async (status) => {
      const req = await create(payoutForm());
      await setStatus(req.id, status);
      expect(await cancelPayout(req.id, maker)).toEqual({ ok: true, status: "cancelled" });
    },
  );

  it("while the request is being submitted: the submitter's move wins, too_late, nothing audited", async () => {
    const req = await create(payoutForm({ amount: "12.5" }), maker, autoBelow100);
    interleaveBeforeUpdateMany((tx) =>
      tx.payoutRequest.update({ where: { id: req.id }, data: { status: "submitting" } }),
    );
    expect(await cancelPayout(req.id, maker, "stop")).toEqual({
      ok: false,
      code: "too_late",
      message: "This pay-out is already being sent.",
    });
    expect((await row(req.id)).status).toBe("submitting");
    expect((await auditTrail(req.id)).map((r) => r.action)).not.toContain("payout.cancel");
  });
});

describe("submission refused", () => {
  const who = () => ({ id: maker.id, email: maker.email });

  it("not found", async () => {
    expect(await submitPayout(randomUUID(), who(), platform)).toEqual({
      ok: false,
      code: "not_found",
      message: "No such pay-out request.",
    });
  });

  it.each([
    ["submitting", "This pay-out is already being submitted; it is sent once."],
    ["submitted", "This pay-out is already being submitted; it is sent once."],
    ["awaiting_approval", "Only an approved request can be submitted (this one is awaiting approval)."],
    ["rejected", "Only an approved request can be submitted (this one is rejected)."],
    ["failed_to_submit", "Only an approved request can be submitted (this one is failed to submit)."],
  ] as const)("not approved (%s)", async (status, message) => {
    const req = await create(payoutForm({ amount: "13.5" }), maker, autoBelow100);
    await setStatus(req.id, status);
    recorder.clear();
    expect(await submitPayout(req.id, who(), platform)).toEqual({
      ok: false,
      code: "not_approved",
      status,
      message,
    });
    expect(payoutCalls()).toHaveLength(0);
    expect((await auditTrail(req.id)).map((r) => r.action)).not.toContain("payout.submit");
  });

  it("cancelled between the read and the claim: not_approved, nothing sent or audited", async () => {
    const req = await create(payoutForm({ amount: "14.5" }), maker, autoBelow100);
    recorder.clear();
    interleaveBeforeUpdateMany((tx) =>
      tx.payoutRequest.update({ where: { id: req.id }, data: { status: "cancelled" } }),
    );
    expect(await submitPayout(req.id, who(), platform)).toEqual({
      ok: false,
      code: "not_approved",
      status: "submitting",
      message: "This pay-out is already being submitted; it is sent once.",
    });
    expect((await row(req.id)).status).toBe("cancelled");
    expect(payoutCalls()).toHaveLength(0);
    expect((await auditTrail(req.id)).map((r) => r.action)).not.toContain("payout.submit");
  });
});

describe("the duplicate guard at submission", () => {
  const who = () => ({ id: maker.id, email: maker.email });

  async function twins(amount: string) {
    const f = payoutForm({ amount });
    const waiting = await create(f, maker, autoBelow100); // approved
    const other = await create({ ...f, overrideReason: "split on purpose" }, admin, autoBelow100);
    return { f, waiting, other };
  }

  it("a twin request being submitted blocks it; the reason is stored on the request; nothing is sent", async () => {
    const { waiting, other } = await twins("21.5");
    await setStatus(other.id, "submitting");
    recorder.clear();
    const result = await submitPayout(waiting.id, who(), platform);
    const message =
      "Blocked: a pay-out request to this recipient for this amount is already submitting. A second one could pay twice. An admin can override this with a reason.";
    expect(result).toEqual({ ok: false, code: "blocked_duplicate", message });
    expect(await row(waiting.id)).toMatchObject({ status: "approved", lastMessage: message });
    expect(payoutCalls()).toHaveLength(0);
  });

  it.each(["awaiting_approval", "approved"] as const)(
    "a twin request that is only %s does not block it (it has not reached the platform); the stored block reason is cleared",
    async (status) => {
      const { waiting, other } = await twins(status === "approved" ? "22.5" : "23.5");
      await setStatus(other.id, status);
      await db.payoutRequest.update({ where: { id: waiting.id }, data: { lastMessage: "Blocked: earlier" } });
      expect(await submitPayout(waiting.id, who(), platform)).toMatchObject({
        ok: true,
        status: "submitted",
      });
      expect((await row(waiting.id)).lastMessage).toBeNull();
    },
  );

  const notFinished = "was accepted by the platform and is not finished yet";
  // Audit of pay-outs, F3: only pending_retry and in_progress blocked; a twin the platform had just
  // accepted (created, booking) did not, though it may still go to pending_retry.
  it.each([
    ["pending_retry", "25.5", "is waiting for the platform's retry (pending_retry) on the platform"],
    ["in_progress", "24.5", "is in progress on the platform"],
    ["created", "24.6", notFinished],
    ["booking", "24.7", notFinished],
    ["precreated", "24.8", notFinished],
  ] as const)("a twin whose operation is %s blocks it", async (status, amount, words) => {
    const { waiting, other } = await twins(amount);
    const [operationId] = await insertOperations([
      { dateAdded: new Date(), typeOperation: "payOut", status, paymentMethod: "toCard" },
    ]);
    await db.payoutRequest.update({ where: { id: other.id }, data: { status: "submitted", operationId } });
    recorder.clear();
    const result = await submitPayout(waiting.id, who(), platform);
    expect(result).toEqual({
      ok: false,
      code: "blocked_duplicate",
      message: `Blocked: a pay-out to this recipient for this amount ${words}. A second one could pay twice. An admin can override this with a reason.`,
    });
    expect(payoutCalls()).toHaveLength(0);
  });

  it.each(["success", "failed"] as const)(
    "a twin whose operation is %s (final) does not block it",
    async (status) => {
      const { waiting, other } = await twins(status === "success" ? "24.9" : "24.95");
      const [operationId] = await insertOperations([
        { dateAdded: new Date(), typeOperation: "payOut", status, paymentMethod: "toCard" },
      ]);
      await db.payoutRequest.update({ where: { id: other.id }, data: { status: "submitted", operationId } });
      expect(await submitPayout(waiting.id, who(), platform)).toMatchObject({
        ok: true,
        status: "submitted",
      });
    },
  );

  it("a request created with an admin override is not blocked again at submission", async () => {
    const { waiting, other } = await twins("26.5");
    await setStatus(waiting.id, "submitting");
    expect(await submitPayout(other.id, who(), platform)).toMatchObject({ ok: true, status: "submitted" });
  });
});
