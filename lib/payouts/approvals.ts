import "server-only";
import { audit } from "@/lib/audit/log";
import { getDb } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import { handOffSubmission } from "./hand-off";
import { auditActor, type PayoutActor } from "./requests";
import { CANCELLABLE, type PayoutRequestStatus } from "./state";

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
  | {
      ok: false;
      code: "not_found" | "own_request" | "already_decided" | "not_awaiting";
      message: string;
    };

/** Locks the request's row for the rest of the transaction: decisions on one request run one at a time. */
async function lockRequest(tx: Prisma.TransactionClient, id: string) {
  await tx.$queryRaw`SELECT id FROM "PayoutRequest" WHERE id = ${id}::uuid FOR UPDATE`;
}

/**
 * Records one approver's decision. The maker never decides on their own request (admins included), each
 * approver decides once, and only requests awaiting approval take decisions. The row is locked, so two
 * approvers at the same moment are serialised: exactly one of them completes the set and moves the
 * request to approved, and only that call hands it to the worker. Nothing here waits for the platform.
 */
export async function decide(
  id: string,
  decision: "approve" | "reject",
  comment: string,
  actor: PayoutActor,
): Promise<DecisionResult> {
  const db = getDb();
  const who = auditActor(actor);
  const result = await db.$transaction(async (tx): Promise<DecisionResult> => {
    await lockRequest(tx, id);
    const row = await tx.payoutRequest.findUnique({
      where: { id },
      include: { approvals: { select: { approverId: true, decision: true } } },
    });
    if (!row) return { ok: false, code: "not_found", message: "No such pay-out request." };
    if (row.makerId === actor.id)
      return {
        ok: false,
        code: "own_request",
        message: "You created this pay-out; another person must approve or reject it.",
      };
    if (row.approvals.some((a) => a.approverId === actor.id))
      return { ok: false, code: "already_decided", message: "You have already decided on this pay-out." };
    if (row.status !== "awaiting_approval")
      return {
        ok: false,
        code: "not_awaiting",
        message: `This pay-out is ${row.status.replace(/_/g, " ")}; it no longer takes decisions.`,
      };

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
      await tx.payoutRequest.update({ where: { id }, data: { status } });
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
  | { ok: true; status: "cancelled" }
  | { ok: false; code: "not_found" | "not_allowed" | "too_late"; message: string };

/** The maker or an admin cancels a request that has not been sent (draft, awaiting approval, approved). */
export async function cancelPayout(id: string, actor: PayoutActor, comment?: string): Promise<CancelResult> {
  return getDb().$transaction(async (tx): Promise<CancelResult> => {
    await lockRequest(tx, id);
    const row = await tx.payoutRequest.findUnique({ where: { id }, select: { status: true, makerId: true } });
    if (!row) return { ok: false, code: "not_found", message: "No such pay-out request." };
    if (row.makerId !== actor.id && actor.role !== "admin")
      return {
        ok: false,
        code: "not_allowed",
        message: "Only the maker or an admin can cancel this pay-out.",
      };
    if (!CANCELLABLE.includes(row.status))
      return {
        ok: false,
        code: "too_late",
        message: `This pay-out is ${row.status.replace(/_/g, " ")}; only requests not yet sent can be cancelled.`,
      };
    const moved = await tx.payoutRequest.updateMany({
      where: { id, status: { in: [...CANCELLABLE] } },
      data: { status: "cancelled" },
    });
    if (moved.count !== 1)
      return { ok: false, code: "too_late", message: "This pay-out is already being sent." };
    await audit(tx, auditActor(actor), {
      action: "payout.cancel",
      targetType: "payoutRequest",
      targetId: id,
      before: { status: row.status },
      after: { status: "cancelled", comment: comment ?? null },
    });
    return { ok: true, status: "cancelled" };
  });
}
