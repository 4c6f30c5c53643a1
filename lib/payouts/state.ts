/**
 * The pay-out request state machine: every allowed move, in one place. Client-safe.
 *
 *   draft ──────────────► awaiting_approval ──► approved ──► submitting ──► submitted
 *     │  └─(auto-approve)──────────────────────►   │              └──────► failed_to_submit
 *     └► cancelled ◄──────────── (maker/admin) ────┘
 *                     awaiting_approval ──► rejected
 *
 * `draft` is part of the model but the console never stores one: the review step happens in the browser
 * and the request is created as `awaiting_approval` (or `approved` when auto-approved).
 * `submitting` only ever ends through the platform's answer (directly or via the intent's resolution);
 * `submitted`, `rejected`, `cancelled` and `failed_to_submit` are final (a refused idTransactionMerchant
 * is never sent again: a new attempt is a new request).
 * Every status write goes through moveRequest (move.ts), which refuses a move not in TRANSITIONS.
 */
import type { PayoutRequestStatus } from "@/lib/generated/prisma/enums";

export type { PayoutRequestStatus };

export const PAYOUT_STATUSES = [
  "draft",
  "awaiting_approval",
  "approved",
  "submitting",
  "submitted",
  "rejected",
  "cancelled",
  "failed_to_submit",
] as const satisfies readonly PayoutRequestStatus[];

export const TRANSITIONS: Record<PayoutRequestStatus, readonly PayoutRequestStatus[]> = {
  draft: ["awaiting_approval", "approved", "cancelled"],
  awaiting_approval: ["approved", "rejected", "cancelled"],
  approved: ["submitting", "cancelled"],
  submitting: ["submitted", "failed_to_submit"],
  submitted: [],
  rejected: [],
  cancelled: [],
  failed_to_submit: [],
};

export function canMove(from: PayoutRequestStatus, to: PayoutRequestStatus): boolean {
  return TRANSITIONS[from].includes(to);
}

export function isFinalPayoutStatus(status: PayoutRequestStatus): boolean {
  return TRANSITIONS[status].length === 0;
}

/** Statuses from which the request can still be cancelled (nothing has been sent yet). */
export const CANCELLABLE: readonly PayoutRequestStatus[] = (
  Object.keys(TRANSITIONS) as PayoutRequestStatus[]
).filter((s) => canMove(s, "cancelled"));

/**
 * Requests still on their way to the platform: open for the duplicate guard, and counted for their
 * recipient whatever their age (policy.ts, countedForRecipient).
 */
export const OPEN_STATUSES: readonly PayoutRequestStatus[] = ["awaiting_approval", "approved", "submitting"];

/**
 * On its way to the platform with nothing for a person to do: approved and handed to the worker, or
 * being submitted. An approved request the duplicate guard held back carries the guard's message
 * (`note`) and waits for someone to send it.
 */
export function isSending(status: PayoutRequestStatus, note: string | null): boolean {
  return status === "submitting" || (status === "approved" && note === null);
}

/** A move the table does not allow: a bug in the caller, never a user's mistake. */
export class IllegalTransitionError extends Error {
  override name = "IllegalTransitionError";
  constructor(
    readonly from: PayoutRequestStatus,
    readonly to: PayoutRequestStatus,
  ) {
    super(`A pay-out request cannot move from ${from} to ${to}.`);
  }
}

export function assertMove(from: PayoutRequestStatus, to: PayoutRequestStatus): void {
  if (!canMove(from, to)) throw new IllegalTransitionError(from, to);
}
