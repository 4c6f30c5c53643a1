/**
 * Who must approve a new pay-out: the thresholds an admin sets (lib/settings) applied to its amount and
 * to the recipient's other pay-outs of the last 24 h, so that splitting one pay-out into several below
 * the auto-approval limit does not skip the approver. Creation asks it under a lock on the recipient
 * (requests.ts), the review step without one.
 */
import "server-only";
import type { Prisma } from "@/lib/generated/prisma/client";
import { Decimal, isDecimalString } from "@/lib/money/decimal";
import type { Settings } from "@/lib/settings/settings";
import type { PayoutRequestStatus } from "./state";

type Tx = Prisma.TransactionClient;

/** The creation rules an admin sets (lib/settings): approval thresholds and the near-duplicate tolerance. */
export type PayoutRules = Pick<
  Settings,
  "autoApproveBelow" | "twoApprovalsAbove" | "autoApproveRecipientDailySum" | "nearDuplicateTolerancePercent"
>;
export type Thresholds = Pick<PayoutRules, "autoApproveBelow" | "twoApprovalsAbove">;

/** A limit from the settings as a Decimal; an unset or malformed one is no rule. */
export function limitOf(value: string | null | undefined): Decimal | null {
  const v = value?.trim();
  return v && isDecimalString(v) ? new Decimal(v) : null;
}

/**
 * Approvals a request needs by its amount alone (payment currency): below `autoApproveBelow` none (the
 * request is approved at once and handed to the worker), above `twoApprovalsAbove` two, otherwise one.
 * An unset or malformed threshold is no rule. `approvalsFor` adds the recipient's other pay-outs.
 */
export function requiredApprovalsFor(amount: string, thresholds: Thresholds): 0 | 1 | 2 {
  const value = new Decimal(amount);
  const auto = limitOf(thresholds.autoApproveBelow);
  const two = limitOf(thresholds.twoApprovalsAbove);
  if (auto && value.lessThan(auto)) return 0;
  if (two && value.greaterThan(two)) return 2;
  return 1;
}

/** Auto-approval and near-duplicates look at the recipient's pay-outs created in this window. */
export const RECIPIENT_WINDOW_HOURS = 24;

export type ApprovalNeed = {
  requiredApprovals: 0 | 1 | 2;
  /** Why an approver is needed, in words (audited and shown on review); null when none is or no limit is set. */
  reason: string | null;
  /** The recipient's counted pay-outs of the window before this one, and the limit they were held to. */
  recipientWindow: { hours: number; sumBefore: string; limit: string | null };
};

/**
 * Approvals for a new pay-out given the sum of the recipient's counted pay-outs of the last 24 h
 * (`sumBefore`, see recipientWindowSum). It is auto-approved only when its own amount is below
 * `autoApproveBelow` and the recipient's sum with it stays below `autoApproveRecipientDailySum` (unset:
 * `autoApproveBelow` itself), so five pay-outs of 999.99 to one card are not five auto-approvals of a
 * 1000 limit. `autoApproveBelow` unset means no auto-approval at all.
 */
export function approvalsFor(amount: string, sumBefore: Decimal, rules: PayoutRules): ApprovalNeed {
  const byAmount = requiredApprovalsFor(amount, rules);
  const auto = limitOf(rules.autoApproveBelow);
  const limit = limitOf(rules.autoApproveRecipientDailySum) ?? auto;
  const recipientWindow = {
    hours: RECIPIENT_WINDOW_HOURS,
    sumBefore: sumBefore.toFixed(),
    limit: limit?.toFixed() ?? null,
  };
  if (byAmount !== 0) {
    const reason = auto ? `The amount is not below the auto-approval limit (${auto.toFixed()}).` : null;
    return { requiredApprovals: byAmount, reason, recipientWindow };
  }
  const total = sumBefore.plus(amount);
  if (limit && total.lessThan(limit)) return { requiredApprovals: 0, reason: null, recipientWindow };
  return {
    requiredApprovals: 1,
    reason:
      `This recipient's pay-outs of the last ${RECIPIENT_WINDOW_HOURS} h (${sumBefore.toFixed()}) and this one ` +
      `(${new Decimal(amount).toFixed()}) come to ${total.toFixed()}, not below the auto-approval limit per ` +
      `recipient (${limit?.toFixed() ?? "none"}): an approver must check it.`,
    recipientWindow,
  };
}

// Statuses of requests that count for a recipient: on their way or sent; not rejected, cancelled or
// refused by the platform. A sent one whose operation failed on the platform does not count either.
const COUNTED_STATUSES: PayoutRequestStatus[] = ["awaiting_approval", "approved", "submitting", "submitted"];

/**
 * The recipient is the normalised number alone, whatever the method: a card reached through toCard or
 * a mono-bank pair is the same card, an sbp phone the same phone (cards and 20-digit accounts never
 * collide). Pay-outs created outside the console carry no recipient in their reads and are not seen.
 */
export function countedForRecipient(recipientNumber: string, now: Date): Prisma.PayoutRequestWhereInput {
  return {
    recipientNumber,
    createdAt: { gte: new Date(now.getTime() - RECIPIENT_WINDOW_HOURS * 3_600_000) },
    status: { in: COUNTED_STATUSES },
    OR: [{ operationId: null }, { operation: { status: { not: "failed" } } }],
  };
}

/** Sum of the recipient's counted pay-outs of the window (payment currency). */
export async function recipientWindowSum(
  tx: Pick<Tx, "payoutRequest">,
  recipientNumber: string,
  now = new Date(),
): Promise<Decimal> {
  const { _sum } = await tx.payoutRequest.aggregate({
    _sum: { amount: true },
    where: countedForRecipient(recipientNumber, now),
  });
  return new Decimal(_sum.amount?.toFixed() ?? "0");
}
