import "server-only";
import { randomUUID } from "node:crypto";
import type { StaffActor } from "@/lib/audit/log";
import { audit } from "@/lib/audit/log";
import { getDb } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import { Decimal } from "@/lib/money/decimal";
import { maskNumber } from "@/lib/recipients/mask";
import {
  describeDuplicates,
  findCreationDuplicates,
  lockRecipient,
  recipientWindowSum,
  type Duplicate,
} from "./duplicates";
import {
  canOverrideDuplicate,
  refusalMessage,
  requiredApprovals,
  type ApprovalNeed,
  type PayoutRules,
} from "./policy";
import { rulesWith } from "./rules";
import type { PayoutForm } from "./schemas";
import { assertMove, type PayoutRequestStatus } from "./state";
import { payoutWords } from "./words";

export type CreateOutcome =
  | {
      ok: true;
      id: string;
      idTransactionMerchant: string;
      status: PayoutRequestStatus;
      requiredApprovals: number;
      /** True when this call found the request a previous identical call created (double click). */
      existing: boolean;
    }
  | { ok: false; code: "duplicate"; message: string; duplicates: Duplicate[]; canOverride: boolean }
  | { ok: false; code: "override_forbidden" | "id_taken"; message: string };

export function newMerchantId(): string {
  return `po-${randomUUID()}`;
}

/** What creation would decide now, for the review step (no lock: creation decides again under it). */
export async function reviewPayoutRequest(
  form: PayoutForm,
): Promise<{ duplicates: Duplicate[]; approval: ApprovalNeed; autoApproveBelow: string | null }> {
  const rules = await rulesWith();
  const now = new Date();
  return getDb().$transaction(async (tx) => ({
    duplicates: await findCreationDuplicates(tx, form.recipientNumber, form.amount, rules, now),
    approval: requiredApprovals(form.amount, await recipientWindowSum(tx, form.recipientNumber, now), rules),
    autoApproveBelow: rules.autoApproveBelow,
  }));
}

/**
 * Serialises creations with one idTransactionMerchant: the recipient's lock does not when the recipients
 * differ, and the second insert would break the unique index instead of finding the first request.
 */
async function lockMerchantId(tx: Prisma.TransactionClient, idTransactionMerchant: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`payout-id|${idTransactionMerchant}`}, 7372))`;
}

/**
 * Stores a pay-out request (status awaiting_approval, or approved when no approval is needed) with its
 * idTransactionMerchant fixed from now on. Under a lock on the recipient it runs the duplicate guard
 * (exact and near duplicates) and counts the recipient's open pay-outs and those sent in the last 24 h
 * for the approvals it needs (policy.ts decides both); whoever may override the guard
 * (canOverrideDuplicate) does so with a reason, which is stored and audited (the approvals needed are
 * never overridden). An idTransactionMerchant another request holds is refused (id_taken); the same
 * request again (a double click) gets the first one back. Bank, method and balance are checked by the
 * caller (they need the platform).
 * `options.thresholds` replaces settings (tests); the rest come from the settings.
 */
export async function createPayoutRequest(
  form: PayoutForm,
  actor: StaffActor,
  options: { thresholds?: Partial<PayoutRules> } = {},
): Promise<CreateOutcome> {
  const rules = await rulesWith(options.thresholds);
  const idTransactionMerchant = form.idTransactionMerchant ?? newMerchantId();
  const db = getDb();
  const words = await payoutWords();

  return db.$transaction(async (tx) => {
    await lockMerchantId(tx, idTransactionMerchant);
    await lockRecipient(tx, form.recipientNumber);
    const existing = await tx.payoutRequest.findUnique({ where: { idTransactionMerchant } });
    if (existing) {
      const same =
        existing.makerId === actor.id &&
        existing.recipientNumber === form.recipientNumber &&
        existing.amount.toFixed() === new Decimal(form.amount).toFixed();
      if (!same)
        return {
          ok: false,
          code: "id_taken",
          message: words.t("refusals.idTaken"),
        };
      return {
        ok: true,
        id: existing.id,
        idTransactionMerchant,
        status: existing.status,
        requiredApprovals: existing.requiredApprovals,
        existing: true,
      };
    }

    const now = new Date();
    const duplicates = await findCreationDuplicates(tx, form.recipientNumber, form.amount, rules, now);
    if (duplicates.length > 0) {
      const override = canOverrideDuplicate(actor);
      if (!form.overrideReason) {
        return {
          ok: false,
          code: "duplicate",
          message: describeDuplicates(duplicates, words),
          duplicates,
          canOverride: override.ok,
        };
      }
      if (!override.ok)
        return { ok: false, code: override.reason, message: refusalMessage(words.t, override) };
    }
    const approval = requiredApprovals(
      form.amount,
      await recipientWindowSum(tx, form.recipientNumber, now),
      rules,
    );
    const overrideReason = duplicates.length > 0 ? (form.overrideReason ?? null) : null;
    const status: PayoutRequestStatus = approval.ok ? "approved" : "awaiting_approval";
    assertMove("draft", status); // born by the move out of draft (the review step in the browser)
    const created = await tx.payoutRequest.create({
      data: {
        idTransactionMerchant,
        status,
        paymentMethod: form.paymentMethod,
        bankName: form.bankName,
        recipientNumber: form.recipientNumber,
        recipientName: form.recipientName,
        amount: form.amount,
        clientID: form.clientID,
        clientIP: form.clientIP,
        clientDateCreated: new Date(form.clientDateCreated),
        webhookUrl: form.webhookUrl ?? null,
        requiredApprovals: approval.requiredApprovals,
        makerId: actor.id,
        overrideReason,
      },
    });
    const who = actor;
    await audit(tx, who, {
      action: "payout.create",
      targetType: "payoutRequest",
      targetId: created.id,
      after: {
        status,
        idTransactionMerchant,
        paymentMethod: form.paymentMethod,
        bankName: form.bankName,
        recipientNumber: maskNumber(form.recipientNumber),
        amount: form.amount,
        requiredApprovals: approval.requiredApprovals,
        approvalReason: approval.message,
        recipientWindow: approval.recipientWindow,
        thresholds: {
          autoApproveBelow: rules.autoApproveBelow,
          twoApprovalsAbove: rules.twoApprovalsAbove,
          autoApproveRecipientDailySum: rules.autoApproveRecipientDailySum,
        },
      },
    });
    if (overrideReason) {
      await audit(tx, who, {
        action: "payout.duplicate_override",
        targetType: "payoutRequest",
        targetId: created.id,
        after: { reason: overrideReason, duplicates: duplicates as unknown as Prisma.InputJsonValue },
      });
    }
    if (status === "approved") {
      await audit(tx, who, {
        action: "payout.auto_approve",
        targetType: "payoutRequest",
        targetId: created.id,
        before: { status: "draft" },
        after: {
          status,
          autoApproveBelow: rules.autoApproveBelow,
          recipientWindow: approval.recipientWindow,
        },
      });
    }
    return {
      ok: true,
      id: created.id,
      idTransactionMerchant,
      status,
      requiredApprovals: approval.requiredApprovals,
      existing: false,
    };
  });
}
