import "server-only";
import { audit, type StaffActor } from "@/lib/audit/log";
import { getDb } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import { translatorFor } from "@/lib/auth/translator";
import { handOffSubmission } from "./hand-off";
import { moveRequest } from "./move";
import { canCancel, canDecide, refusalMessage, type CancelRefusal, type DecideRefusal } from "./policy";
import type { PayoutRequestStatus } from "./state";

export type DecisionResult =
  | {
      ok: true;
      status: PayoutRequestStatus;
      approvals: number;
      requiredApprovals: number;
      /**
       * Present when this approval completed the set: true when its submission was handed to the worker,
       * false when the queue could not be reached (the worker's sweep sends it within minutes).
       */
      queued?: boolean;
    }
  | { ok: false; code: "not_found" | DecideRefusal; message: string };

/** Locks the request's row for the rest of the transaction: decisions on one request run one at a time. */
async function lockRequest(tx: Prisma.TransactionClient, id: string) {
  await tx.$queryRaw`SELECT id FROM "PayoutRequest" WHERE id = ${id}::uuid FOR UPDATE`;
}

/**
 * Records one approver's decision, as the policy allows (canDecide: never the maker, admins included;
 * once per approver; only while the request awaits approval). The row is locked, so two approvers at
 * the same moment are serialised: exactly one of them completes the set and moves the request to
 * approved, and only that call hands it to the worker. Nothing here waits for the platform.
 */
export async function decide(
  id: string,
  decision: "approve" | "reject",
  comment: string,
  actor: StaffActor,
): Promise<DecisionResult> {
  const db = getDb();
  const who = actor;
  const t = await translatorFor("payouts");
  const result = await db.$transaction(async (tx): Promise<DecisionResult> => {
    await lockRequest(tx, id);
    const row = await tx.payoutRequest.findUnique({
      where: { id },
      include: { approvals: { select: { approverId: true, decision: true } } },
    });
    if (!row) return { ok: false, code: "not_found", message: t("refusals.notFound") };
    const verdict = canDecide(row, actor);
    if (!verdict.ok) return { ok: false, code: verdict.reason, message: refusalMessage(t, verdict) };

    await tx.payoutApproval.create({
      data: { payoutRequestId: id, approverId: actor.id, decision, comment },
    });
    await audit(tx, who, {
      action: decision === "approve" ? "payout.approve" : "payout.reject",
      targetType: "payoutRequest",
      targetId: id,
      after: { decision, comment },
    });
    const approvals =
      row.approvals.filter((a) => a.decision === "approve").length + (decision === "approve" ? 1 : 0);
    let status: PayoutRequestStatus = row.status;
    if (decision === "reject") status = "rejected";
    else if (approvals >= row.requiredApprovals) status = "approved";
    if (status !== row.status) {
      // the row is locked: nothing else can have moved it since it was read
      if (!(await moveRequest(tx, id, row.status, status)))
        throw new Error(`pay-out request ${id} changed status under its lock`);
      await audit(tx, who, {
        action: "payout.status",
        targetType: "payoutRequest",
        targetId: id,
        before: { status: row.status },
        after: { status, approvals, requiredApprovals: row.requiredApprovals },
      });
    }
    return { ok: true, status, approvals, requiredApprovals: row.requiredApprovals };
  });
  if (result.ok && result.status === "approved")
    return { ...result, queued: await handOffSubmission(id, who) };
  return result;
}

export type CancelResult =
  { ok: true; status: "cancelled" } | { ok: false; code: "not_found" | CancelRefusal; message: string };

/**
 * Cancels a request that has not been sent, as the policy allows (canCancel: the maker, or whoever may
 * cancel any request).
 */
export async function cancelPayout(id: string, actor: StaffActor, comment?: string): Promise<CancelResult> {
  const t = await translatorFor("payouts");
  return getDb().$transaction(async (tx): Promise<CancelResult> => {
    await lockRequest(tx, id);
    const row = await tx.payoutRequest.findUnique({ where: { id }, select: { status: true, makerId: true } });
    if (!row) return { ok: false, code: "not_found", message: t("refusals.notFound") };
    const verdict = canCancel(row, actor);
    if (!verdict.ok) return { ok: false, code: verdict.reason, message: refusalMessage(t, verdict) };
    if (!(await moveRequest(tx, id, row.status, "cancelled")))
      return { ok: false, code: "too_late", message: t("refusals.alreadySending") };
    await audit(tx, actor, {
      action: "payout.cancel",
      targetType: "payoutRequest",
      targetId: id,
      before: { status: row.status },
      after: { status: "cancelled", comment: comment ?? null },
    });
    return { ok: true, status: "cancelled" };
  });
}
