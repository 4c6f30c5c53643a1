"use server";
import { z } from "zod";
import { authorizedAction, stepUpAction } from "@/lib/auth/action";
import { cancelPayout, decide } from "@/lib/payouts/approvals";
import { handOffSubmission } from "@/lib/payouts/hand-off";
import { balanceFor, checkWithPlatform } from "@/lib/payouts/platform-checks";
import { approvalReasonMessage, canOverrideDuplicate } from "@/lib/payouts/policy";
import type { BalanceCheck } from "@/lib/payouts/balance-check";
import { describeDuplicates } from "@/lib/payouts/duplicates";
import { createPayoutRequest, newMerchantId, reviewPayoutRequest } from "@/lib/payouts/requests";
import {
  cancelSchema,
  decisionSchema,
  payoutFormSchema,
  payoutIdSchema,
  type PayoutForm,
} from "@/lib/payouts/schemas";
import { submitPayout } from "@/lib/payouts/submit";
import { payoutWords } from "@/lib/payouts/words";

/** A form posted as FormData is read as its fields; objects pass through unchanged. */
const fromForm = (input: unknown) => (input instanceof FormData ? Object.fromEntries(input) : input);
const formInput = z.preprocess(fromForm, payoutFormSchema);

export type PayoutReview = {
  form: PayoutForm & { idTransactionMerchant: string };
  requiredApprovals: number;
  /** Why an approver is needed (e.g. the recipient's open and recently sent pay-outs reach the limit). */
  approvalReason: string | null;
  balance: BalanceCheck | null;
  /** Why the balance could not be checked (platform unreachable), with its traceID. */
  balanceProblem: { message: string; platformMessage: string | null; traceID: string | null } | null;
  duplicate: { message: string; canOverride: boolean } | null;
};

/** Checks the form with the platform's directory, tariff and balance; creates nothing (payouts.create). */
export const reviewPayoutAction = authorizedAction("payouts.create", formInput, async (form, { user }) => {
  const refused = await checkWithPlatform(form, user.id);
  if (refused) return refused;
  const [balance, { duplicates, approval, autoApproveBelow }, words] = await Promise.all([
    balanceFor(form.amount, user.id),
    reviewPayoutRequest(form),
    payoutWords(),
  ]);
  const result: PayoutReview = {
    form: { ...form, idTransactionMerchant: form.idTransactionMerchant ?? newMerchantId() },
    requiredApprovals: approval.requiredApprovals,
    approvalReason: approvalReasonMessage(words.t, approval, form.amount, autoApproveBelow, words.locale),
    balance: "ok" in balance ? null : balance,
    balanceProblem:
      "ok" in balance
        ? {
            message: balance.message,
            platformMessage: balance.platformMessage ?? null,
            traceID: balance.traceID ?? null,
          }
        : null,
    duplicate: duplicates.length
      ? { message: describeDuplicates(duplicates, words), canOverride: canOverrideDuplicate(user).ok }
      : null,
  };
  return { ok: true as const, review: result };
});

export type CreatedPayout = {
  ok: true;
  id: string;
  idTransactionMerchant: string;
  status: string;
  /**
   * For a request auto-approved by this call: true when its submission was handed to the worker, false
   * when the queue could not be reached (the worker's sweep sends it); null otherwise.
   */
  queued: boolean | null;
};

/**
 * Creates the request (and hands it to the worker when no approval is needed) (payouts.create). With
 * step-up: an auto-approved request is sent from this call alone.
 */
export const createPayoutRequestAction = stepUpAction(
  "payouts.create",
  formInput,
  async (form, { user, actor }) => {
    const refused = await checkWithPlatform(form, user.id);
    if (refused) return refused;
    const balance = await balanceFor(form.amount, user.id);
    if (!("ok" in balance) && balance.sufficient === false) {
      const { t } = await payoutWords();
      return {
        ok: false as const,
        code: "insufficient_balance",
        message: t("create.insufficientBalance"),
        fieldErrors: { amount: [t("create.amountOverBalance")] },
      };
    }
    const created = await createPayoutRequest(form, actor);
    if (!created.ok) {
      return {
        ok: false as const,
        code: created.code,
        message: created.message,
        ...(created.code === "duplicate" ? { canOverride: created.canOverride } : {}),
      };
    }
    const queued =
      created.status === "approved" && !created.existing ? await handOffSubmission(created.id, actor) : null;
    return {
      ok: true as const,
      id: created.id,
      idTransactionMerchant: created.idTransactionMerchant,
      status: created.status,
      queued,
    } satisfies CreatedPayout;
  },
);

/**
 * An approver who is not the maker approves with a comment; the last approval hands the submission to
 * the worker and returns at once (payouts.approve).
 */
export const approvePayoutAction = stepUpAction("payouts.approve", decisionSchema, async (input, { actor }) =>
  decide(input.id, "approve", input.comment, actor),
);

/** An approver who is not the maker rejects with a comment (payouts.approve). */
export const rejectPayoutAction = authorizedAction(
  "payouts.approve",
  decisionSchema,
  async (input, { actor }) => decide(input.id, "reject", input.comment, actor),
);

/** The maker (or whoever may cancel any request) cancels a request that has not been sent (payouts.create). */
export const cancelPayoutAction = authorizedAction("payouts.create", cancelSchema, async (input, { actor }) =>
  cancelPayout(input.id, actor, input.comment),
);

/**
 * Sends an approved request that was not sent yet (e.g. blocked earlier by the duplicate guard)
 * (payouts.create, with step-up: money leaves).
 */
export const submitPayoutAction = stepUpAction("payouts.create", payoutIdSchema, async (input, { actor }) =>
  submitPayout(input.id, actor),
);
