import "server-only";
import { audit, type StaffActor } from "@/lib/audit/log";
import { getDb } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import { translatorFor } from "@/lib/auth/translator";
import { lockRecipient, recipientWindowSum } from "./duplicates";
import { handOffSubmission } from "./hand-off";
import { moveRequest } from "./move";
import {
  canApprove,
  canCancel,
  canDecide,
  countsAsApproval,
  refusalMessage,
  requiredApprovals,
  type ApproveRefusal,
  type CancelRefusal,
  type PayoutRules,
} from "./policy";
import { rulesWith } from "./rules";
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
  | { ok: false; code: "not_found" | ApproveRefusal; message: string };

type Tx = Prisma.TransactionClient;

/** Locks the request's row for the rest of the transaction: decisions on one request run one at a time. */
async function lockRequest(tx: Tx, id: string) {
  await tx.$queryRaw`SELECT id FROM "PayoutRequest" WHERE id = ${id}::uuid FOR UPDATE`;
}

/** Who last set a user's password (null: the command line, the user themselves, or no password). */
async function passwordSetByOf(tx: Tx, userId: string): Promise<string | null> {
  const user = await tx.user.findUnique({ where: { id: userId }, select: { passwordSetById: true } });
  return user?.passwordSetById ?? null;
}

/**
 * The request as rejecting reads it (canDecide, then the count): no passwords, rejecting asks none.
 */
function readForRejecting(tx: Tx, id: string) {
  return tx.payoutRequest.findUnique({
    where: { id },
    include: {
      approvals: {
        select: { approverId: true, decision: true, approver: { select: { disabledAt: true, role: true } } },
      },
    },
  });
}

/**
 * The request as approving reads it (canApprove): also the maker's account and who last set the
 * maker's and each earlier approver's password, as they are now (policy.ts passwordsIndependent).
 */
function readForApproving(tx: Tx, id: string) {
  return tx.payoutRequest.findUnique({
    where: { id },
    include: {
      maker: { select: { disabledAt: true, passwordSetById: true } },
      approvals: {
        select: {
          approverId: true,
          decision: true,
          approver: { select: { disabledAt: true, role: true, passwordSetById: true } },
        },
      },
    },
  });
}

/**
 * The approvals the request needs now: never fewer than when it was created, more when the recipient's
 * other counted pay-outs have grown since (or the limits were lowered), with what the audit records of
 * the raise (null: none).
 */
async function approvalsNeededNow(
  tx: Tx,
  row: { id: string; recipientNumber: string; amount: { toFixed(): string }; requiredApprovals: number },
  rules: PayoutRules,
) {
  const sumBefore = await recipientWindowSum(tx, row.recipientNumber, new Date(), row.id);
  const need = requiredApprovals(row.amount.toFixed(), sumBefore, rules);
  if (need.requiredApprovals <= row.requiredApprovals)
    return { required: row.requiredApprovals, raised: null };
  await tx.payoutRequest.update({
    where: { id: row.id },
    data: { requiredApprovals: need.requiredApprovals },
  });
  return {
    required: need.requiredApprovals,
    raised: {
      requiredApprovalsBefore: row.requiredApprovals,
      requiredApprovals: need.requiredApprovals,
      approvalReason: need.message,
      recipientWindow: need.recipientWindow,
    },
  };
}

/**
 * Records one approver's decision, as the policy allows (canDecide: never the maker, admins included;
 * once per approver; only while the request awaits approval; canApprove, for approving only: never
 * when the maker set the approver's password or the approver the maker's, nor when the approver and
 * an approval already counted did so between them; not a disabled maker's). Rejecting reads no
 * passwords: it moves no money. The request's row and its recipient are locked, so two approvers at
 * the same moment are serialised:
 * exactly one of them completes the set and moves the request to approved, and only that call hands it
 * to the worker. An approval asks again how many approvals the request needs, with the recipient's
 * pay-outs as they are now; the approvals counted are those of approvers who could still give them
 * (countsAsApproval). Nothing here waits for the platform.
 * `options.thresholds` replaces settings (tests); the rest come from the settings.
 */
export async function decide(
  id: string,
  decision: "approve" | "reject",
  comment: string,
  actor: StaffActor,
  options: { thresholds?: Partial<PayoutRules> } = {},
): Promise<DecisionResult> {
  const db = getDb();
  const who = actor;
  const t = await translatorFor("payouts");
  const rules = await rulesWith(options.thresholds);
  const notFound = { ok: false, code: "not_found", message: t("refusals.notFound") } as const;
  const result = await db.$transaction(async (tx): Promise<DecisionResult> => {
    // the recipient first, as creation and submission take it: the recipient's sum cannot move meanwhile
    const target = await tx.payoutRequest.findUnique({ where: { id }, select: { recipientNumber: true } });
    if (!target) return notFound;
    await lockRecipient(tx, target.recipientNumber);
    await lockRequest(tx, id);
    // each decision reads what its rule asks (approving is the one that reads passwords)
    let row: NonNullable<Awaited<ReturnType<typeof readForRejecting>>>;
    if (decision === "approve") {
      const approving = await readForApproving(tx, id);
      if (!approving) return notFound;
      // who set the approver's password, as it is now (policy.ts passwordsIndependent)
      const verdict = canApprove(approving, {
        ...actor,
        passwordSetById: await passwordSetByOf(tx, actor.id),
      });
      if (!verdict.ok) return { ok: false, code: verdict.reason, message: refusalMessage(t, verdict) };
      row = approving;
    } else {
      const rejecting = await readForRejecting(tx, id);
      if (!rejecting) return notFound;
      const verdict = canDecide(rejecting, actor);
      if (!verdict.ok) return { ok: false, code: verdict.reason, message: refusalMessage(t, verdict) };
      row = rejecting;
    }

    await tx.payoutApproval.create({
      data: { payoutRequestId: id, approverId: actor.id, decision, comment },
    });
    const needed =
      decision === "approve"
        ? await approvalsNeededNow(tx, row, rules)
        : { required: row.requiredApprovals, raised: null };
    await audit(tx, who, {
      action: decision === "approve" ? "payout.approve" : "payout.reject",
      targetType: "payoutRequest",
      targetId: id,
      after: { decision, comment, ...needed.raised },
    });
    const approvals = row.approvals.filter(countsAsApproval).length + (decision === "approve" ? 1 : 0);
    let status: PayoutRequestStatus = row.status;
    if (decision === "reject") status = "rejected";
    else if (approvals >= needed.required) status = "approved";
    if (status !== row.status) {
      // the row is locked: nothing else can have moved it since it was read
      if (!(await moveRequest(tx, id, row.status, status)))
        throw new Error(`pay-out request ${id} changed status under its lock`);
      await audit(tx, who, {
        action: "payout.status",
        targetType: "payoutRequest",
        targetId: id,
        before: { status: row.status },
        after: { status, approvals, requiredApprovals: needed.required },
      });
    }
    return { ok: true, status, approvals, requiredApprovals: needed.required };
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
