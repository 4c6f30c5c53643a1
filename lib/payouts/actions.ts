"use server";
import { z } from "zod";
import { authorizedAction } from "@/lib/auth/action";
import { actorFor } from "@/lib/audit/actor";
import type { StaffUser } from "@/lib/auth/session";
import { getBalanceCached } from "@/lib/balance/cached";
import { getBankDirectory } from "@/lib/banks/directory";
import { getLog } from "@/lib/log";
import { isPlatformError } from "@/lib/platform/errors";
import { getPlatformClient } from "@/lib/platform/from-env";
import { cancelPayout, decide } from "./approvals";
import { explainPlatformRefusal } from "./errors";
import { handOffSubmission } from "./hand-off";
import {
  auditActor,
  checkBalance,
  createPayoutRequest,
  describeDuplicates,
  newMerchantId,
  payoutMethodChoices,
  reviewPayoutRequest,
  type BalanceCheck,
  type PayoutActor,
} from "./requests";
import { cancelSchema, decisionSchema, payoutFormSchema, payoutIdSchema, type PayoutForm } from "./schemas";
import { checkWebhookUrl } from "@/lib/validation/webhook-url";
import { submitPayout } from "./submit";

/** A form posted as FormData is read as its fields; objects pass through unchanged. */
const fromForm = (input: unknown) => (input instanceof FormData ? Object.fromEntries(input) : input);
const formInput = z.preprocess(fromForm, payoutFormSchema);

type FieldErrors = Record<string, string[] | undefined>;
type Refused = {
  ok: false;
  code: string;
  message: string;
  fieldErrors?: FieldErrors;
  traceID?: string | null;
};

async function actorOf(user: StaffUser): Promise<PayoutActor> {
  const actor = await actorFor(user);
  return { id: user.id, email: user.email, role: user.role, ip: actor.ip ?? null };
}

function platformProblem(error: unknown, what: string): Refused {
  if (!isPlatformError(error)) throw error;
  const explained = explainPlatformRefusal({
    codeError: error.codeError,
    message: error.platformMessage,
    traceID: error.traceID,
    kind: error.kind,
  });
  getLog().warn({ err: error, traceID: error.traceID }, `pay-out form: ${what} failed`);
  return {
    ok: false,
    code: "platform_unavailable",
    message: `${what} could not be read from the platform. ${explained.message}`,
    traceID: error.traceID,
  };
}

/**
 * A webhook URL the platform may call (checked first: a refused one asks nothing of the platform), a
 * bank from the directory (canonical names only) and a method the tariff allows, as far as known.
 */
async function checkWithPlatform(form: PayoutForm, user: StaffUser): Promise<Refused | null> {
  const fieldErrors: FieldErrors = {};
  const webhookProblem = form.webhookUrl ? await checkWebhookUrl(form.webhookUrl) : null;
  if (webhookProblem) {
    fieldErrors.webhookUrl = [webhookProblem];
    return { ok: false, code: "invalid", message: "Check the highlighted fields.", fieldErrors };
  }
  const [directory, methods] = await Promise.all([
    getBankDirectory(getPlatformClient(), { actorUserId: user.id }).catch((e: unknown) => e),
    payoutMethodChoices(),
  ]);
  if (!("banks" in (directory as object))) return platformProblem(directory, "The bank directory");
  const { banks } = directory as Awaited<ReturnType<typeof getBankDirectory>>;
  if (!banks.some((b) => b.name === form.bankName)) {
    const shown = form.bankName.length > 60 ? `${form.bankName.slice(0, 60)}…` : form.bankName;
    fieldErrors.bankName = [
      `“${shown}” is not in the platform's bank directory. Choose the bank from the list (canonical names only).`,
    ];
  }
  if (!methods.allowed.includes(form.paymentMethod)) {
    const refused = methods.notInTariff.find((m) => m.method === form.paymentMethod);
    fieldErrors.paymentMethod = [
      refused
        ? `${form.paymentMethod} is not in the merchant's tariff (the platform refused it on ${refused.refusedAt.toISOString().slice(0, 10)}).`
        : `${form.paymentMethod} is not offered for pay-outs here; choose a method from the list.`,
    ];
  }
  return Object.keys(fieldErrors).length
    ? { ok: false, code: "invalid", message: "Check the highlighted fields.", fieldErrors }
    : null;
}

async function balanceFor(amount: string, user: StaffUser): Promise<BalanceCheck | Refused> {
  try {
    const balance = await getBalanceCached(getPlatformClient(), { actorUserId: user.id });
    return checkBalance(amount, balance);
  } catch (error) {
    return platformProblem(error, "The balance");
  }
}

export type PayoutReview = {
  form: PayoutForm & { idTransactionMerchant: string };
  requiredApprovals: number;
  /** Why an approver is needed (e.g. the recipient's pay-outs of the last 24 h reach the limit). */
  approvalReason: string | null;
  balance: BalanceCheck | null;
  /** Why the balance could not be checked (platform unreachable), with its traceID. */
  balanceProblem: { message: string; traceID: string | null } | null;
  duplicate: { message: string; canOverride: boolean } | null;
};

const review = authorizedAction("payouts.create", formInput, async (form, user) => {
  const refused = await checkWithPlatform(form, user);
  if (refused) return refused;
  const [balance, { duplicates, approval }] = await Promise.all([
    balanceFor(form.amount, user),
    reviewPayoutRequest(form),
  ]);
  const result: PayoutReview = {
    form: { ...form, idTransactionMerchant: form.idTransactionMerchant ?? newMerchantId() },
    requiredApprovals: approval.requiredApprovals,
    approvalReason: approval.reason,
    balance: "ok" in balance ? null : balance,
    balanceProblem: "ok" in balance ? { message: balance.message, traceID: balance.traceID ?? null } : null,
    duplicate: duplicates.length
      ? { message: describeDuplicates(duplicates), canOverride: user.role === "admin" }
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

const create = authorizedAction("payouts.create", formInput, async (form, user) => {
  const refused = await checkWithPlatform(form, user);
  if (refused) return refused;
  const balance = await balanceFor(form.amount, user);
  if (!("ok" in balance) && balance.sufficient === false) {
    return {
      ok: false as const,
      code: "insufficient_balance",
      message: "The balance is too low for this pay-out at the current rate. Top up the balance first.",
      fieldErrors: { amount: ["More than the balance at the current rate."] },
    };
  }
  const actor = await actorOf(user);
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
    created.status === "approved" && !created.existing
      ? await handOffSubmission(created.id, auditActor(actor))
      : null;
  return {
    ok: true as const,
    id: created.id,
    idTransactionMerchant: created.idTransactionMerchant,
    status: created.status,
    queued,
  } satisfies CreatedPayout;
});

const approve = authorizedAction("payouts.approve", decisionSchema, async (input, user) =>
  decide(input.id, "approve", input.comment, await actorOf(user)),
);

const reject = authorizedAction("payouts.approve", decisionSchema, async (input, user) =>
  decide(input.id, "reject", input.comment, await actorOf(user)),
);

const cancel = authorizedAction("payouts.create", cancelSchema, async (input, user) =>
  cancelPayout(input.id, await actorOf(user), input.comment),
);

const submit = authorizedAction("payouts.create", payoutIdSchema, async (input, user) => {
  const actor = await actorOf(user);
  return submitPayout(input.id, { userId: actor.id, email: actor.email, ip: actor.ip ?? null });
});

/** Checks the form with the platform's directory, tariff and balance; creates nothing (payouts.create). */
export async function reviewPayoutAction(input: unknown) {
  return review(input);
}

/** Creates the request (and hands it to the worker when no approval is needed) (payouts.create). */
export async function createPayoutRequestAction(input: unknown) {
  return create(input);
}

/**
 * An approver who is not the maker approves with a comment; the last approval hands the submission to
 * the worker and returns at once (payouts.approve).
 */
export async function approvePayoutAction(input: unknown) {
  return approve(input);
}

/** An approver who is not the maker rejects with a comment (payouts.approve). */
export async function rejectPayoutAction(input: unknown) {
  return reject(input);
}

/** The maker or an admin cancels a request that has not been sent (payouts.create). */
export async function cancelPayoutAction(input: unknown) {
  return cancel(input);
}

/** Sends an approved request that was not sent yet (e.g. blocked earlier by the duplicate guard). */
export async function submitPayoutAction(input: unknown) {
  return submit(input);
}
