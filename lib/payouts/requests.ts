import "server-only";
import { randomUUID } from "node:crypto";
import type { StaffActor } from "@/lib/audit/log";
import { audit } from "@/lib/audit/log";
import { getDb } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import { Decimal } from "@/lib/money/decimal";
import { formatMoney } from "@/lib/money/format";
import { maskNumber } from "@/lib/recipients/mask";
import { KNOWN_MONO_BANK_METHODS } from "@/lib/platform/payment-methods";
import { getSettings } from "@/lib/settings/settings";
import {
  canOverrideDuplicate,
  countedForRecipient,
  limitOf,
  RECIPIENT_WINDOW_HOURS,
  refusalMessage,
  requiredApprovals,
  type ApprovalNeed,
  type PayoutRules,
} from "./policy";
import type { PayoutForm } from "./schemas";
import { assertMove, OPEN_STATUSES, type PayoutRequestStatus } from "./state";
import { payoutWords, type PayoutWords } from "./words";

type Tx = Prisma.TransactionClient;

/** The rules in force, with the ones given (tests, or a caller that already read them) taking precedence. */
async function rulesWith(given: Partial<PayoutRules> = {}): Promise<PayoutRules> {
  const defined = Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined));
  return { ...(await getSettings()), ...defined };
}

// ---- pay-out methods and the tariff ------------------------------------------------------------

/** Pay-out methods of the spec the form offers: the three RUB methods and the known mono-bank pairs. */
export const PAYOUT_METHOD_CHOICES: readonly string[] = [
  "toCard",
  "sbp",
  "toAccount",
  ...KNOWN_MONO_BANK_METHODS,
];

export type MethodChoices = {
  /** Methods the form offers. */
  allowed: string[];
  /** Methods the platform refused as outside the tariff, with no successful pay-out since. */
  notInTariff: Array<{ method: string; refusedAt: Date }>;
  /** Methods with a successful mirrored pay-out: known to be in the tariff. */
  confirmed: string[];
};

/**
 * The tariff is not exposed by the API, so it is learned: a method counts as outside the tariff when the
 * platform refused a console pay-out with noSuitableTariffForRequest and no pay-out with that method
 * succeeded afterwards. Such methods are left out of the form (and refused on the server) until then;
 * an admin who had the tariff changed can clear it by a successful pay-out created outside the console,
 * or the evidence expires after TARIFF_EVIDENCE_DAYS.
 */
export const TARIFF_EVIDENCE_DAYS = 7;

export async function payoutMethodChoices(now = new Date()): Promise<MethodChoices> {
  const db = getDb();
  const since = new Date(now.getTime() - TARIFF_EVIDENCE_DAYS * 86_400_000);
  const [refusals, successes] = await Promise.all([
    db.payoutRequest.groupBy({
      by: ["paymentMethod"],
      where: { lastCodeError: "noSuitableTariffForRequest", updatedAt: { gte: since } },
      _max: { updatedAt: true },
    }),
    db.operation.groupBy({
      by: ["paymentMethod"],
      where: { typeOperation: "payOut", status: "success", paymentMethod: { not: null } },
      _max: { dateUpdated: true },
    }),
  ]);
  const lastSuccess = new Map(successes.map((s) => [s.paymentMethod ?? "", s._max.dateUpdated]));
  const notInTariff = refusals
    .map((r) => ({ method: r.paymentMethod, refusedAt: r._max.updatedAt ?? now }))
    .filter((r) => {
      const success = lastSuccess.get(r.method);
      return !success || success < r.refusedAt;
    });
  const excluded = new Set(notInTariff.map((r) => r.method));
  return {
    allowed: PAYOUT_METHOD_CHOICES.filter((m) => !excluded.has(m)),
    notInTariff,
    confirmed: [...lastSuccess.keys()].filter((m) => m && !excluded.has(m)),
  };
}

// ---- duplicate guard ---------------------------------------------------------------------------

export type Duplicate =
  | { kind: "operation"; operationId: string; status: string; payoutRequestId: string }
  | { kind: "request"; payoutRequestId: string; status: PayoutRequestStatus; idTransactionMerchant: string }
  | {
      kind: "near";
      payoutRequestId: string;
      status: PayoutRequestStatus;
      amount: string;
      createdAt: string;
      tolerancePercent: string;
    };

/**
 * Earlier pay-outs to the same recipient and amount that block a new one: a mirrored pay-out operation
 * in pending_retry or in_progress (the spec forbids a new operation while one is pending_retry; one in
 * progress may still succeed), and an open console request (awaiting approval, approved or submitting)
 * that has not reached the platform yet - the same pay-out entered twice. Pay-outs created outside the
 * console carry no recipient in their reads, so only the console's own requests can be matched.
 */
export async function findDuplicates(
  tx: Pick<Tx, "payoutRequest">,
  recipientNumber: string,
  amount: string,
  excludeId?: string,
): Promise<Duplicate[]> {
  const rows = await tx.payoutRequest.findMany({
    where: {
      recipientNumber,
      amount,
      ...(excludeId ? { id: { not: excludeId } } : {}),
      OR: [
        { status: { in: [...OPEN_STATUSES] } },
        { operation: { status: { in: ["pending_retry", "in_progress"] } } },
      ],
    },
    select: {
      id: true,
      status: true,
      idTransactionMerchant: true,
      operation: { select: { id: true, status: true } },
    },
    orderBy: { createdAt: "asc" },
    take: 20,
  });
  return rows.map((r) =>
    r.operation && (r.operation.status === "pending_retry" || r.operation.status === "in_progress")
      ? { kind: "operation", operationId: r.operation.id, status: r.operation.status, payoutRequestId: r.id }
      : {
          kind: "request",
          payoutRequestId: r.id,
          status: r.status,
          idTransactionMerchant: r.idTransactionMerchant,
        },
  );
}

/**
 * Near-duplicates (splitting, or the same pay-out entered again with a changed amount): the recipient's
 * counted pay-outs of the last 24 h whose amount is within `tolerancePercent` % of the new amount. Off
 * when the tolerance is unset.
 */
export async function findNearDuplicates(
  tx: Pick<Tx, "payoutRequest">,
  recipientNumber: string,
  amount: string,
  tolerancePercent: string | null,
  now = new Date(),
): Promise<Duplicate[]> {
  const percent = limitOf(tolerancePercent);
  if (!percent) return [];
  const value = new Decimal(amount);
  const delta = value.times(percent).dividedBy(100);
  const rows = await tx.payoutRequest.findMany({
    where: {
      AND: [
        countedForRecipient(recipientNumber, now),
        { amount: { gte: value.minus(delta).toFixed(), lte: value.plus(delta).toFixed() } },
      ],
    },
    select: { id: true, status: true, amount: true, createdAt: true },
    orderBy: { createdAt: "asc" },
    take: 20,
  });
  return rows.map((r) => ({
    kind: "near",
    payoutRequestId: r.id,
    status: r.status,
    amount: r.amount.toFixed(),
    createdAt: r.createdAt.toISOString(),
    tolerancePercent: percent.toFixed(),
  }));
}

/** Sum of the recipient's counted pay-outs of the window (payment currency), for requiredApprovals. */
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

/** What blocks a new request: exact duplicates, then near-duplicates that are not exact ones. */
export async function findCreationDuplicates(
  tx: Pick<Tx, "payoutRequest">,
  recipientNumber: string,
  amount: string,
  rules: Pick<PayoutRules, "nearDuplicateTolerancePercent">,
  now = new Date(),
): Promise<Duplicate[]> {
  const exact = await findDuplicates(tx, recipientNumber, amount);
  const seen = new Set(exact.map((d) => d.payoutRequestId));
  const near = await findNearDuplicates(
    tx,
    recipientNumber,
    amount,
    rules.nearDuplicateTolerancePercent,
    now,
  );
  return [...exact, ...near.filter((d) => !seen.has(d.payoutRequestId))];
}

/**
 * Serialises creations and submissions to one recipient: the duplicate guard's and the recipient sum's
 * check-then-act (two splits created at once must not both see the other missing).
 */
export async function lockRecipient(tx: Tx, recipientNumber: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`recipient|${recipientNumber}`}, 7371))`;
}

function describeDuplicate(d: Duplicate, { t, locale }: PayoutWords): string {
  if (d.kind === "operation")
    return d.status === "pending_retry"
      ? t("duplicate.operationPendingRetry")
      : t("duplicate.operationInProgress");
  if (d.kind === "request") return t("duplicate.request", { status: t(`statuses.${d.status}`) });
  return t("duplicate.near", {
    amount: formatMoney(d.amount, "", { locale }),
    percent: d.tolerancePercent,
    hours: RECIPIENT_WINDOW_HOURS,
    status: t(`statuses.${d.status}`),
  });
}

/** What the duplicate guard says about the earlier pay-outs it found, in the reader's language. */
export function describeDuplicates(duplicates: Duplicate[], words: PayoutWords): string {
  // An operation on the platform weighs more than a request that has not been sent, and both more
  // than a near-duplicate.
  const first =
    duplicates.find((d) => d.kind === "operation") ??
    duplicates.find((d) => d.kind === "request") ??
    duplicates[0];
  if (!first) return "";
  return words.t("duplicate.blocked", {
    what: describeDuplicate(first, words),
    risk: first.kind === "near" ? words.t("duplicate.riskNear") : words.t("duplicate.riskExact"),
  });
}

// ---- creation ----------------------------------------------------------------------------------

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
 * Stores a pay-out request (status awaiting_approval, or approved when no approval is needed) with its
 * idTransactionMerchant fixed from now on. Under a lock on the recipient it runs the duplicate guard
 * (exact and near duplicates) and counts the recipient's pay-outs of the last 24 h for auto-approval
 * (policy.ts decides both); whoever may override the guard (canOverrideDuplicate) does so with a
 * reason, which is stored and audited (the approvals needed are never overridden). Bank, method and
 * balance are checked by the caller (they need the platform).
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

// ---- balance sufficiency ------------------------------------------------------------------------

export type BalanceCheck = {
  /** GET /balance as read (decimal strings). */
  amountInCurrencyBalance: string;
  currencyBalance: string;
  currencyPayment: string;
  exchangeRate: string;
  traceID: string | null;
  /** The pay-out amount in the balance currency at the current rate (exact; rounded only for display). */
  amountInBalanceCurrency: string | null;
  /** False when the balance is clearly too low; null when the rate is unknown (no successful operation). */
  sufficient: boolean | null;
};

/**
 * The pay-out amount (payment currency) converted to the balance currency at GET /balance's rate
 * (payment units per balance unit, the sandbox's and the operations' convention) and compared with the
 * available balance. The commission is not known in advance, so an amount just under the balance may
 * still be refused by the platform.
 */
export function checkBalance(
  amount: string,
  balance: {
    amountInCurrencyBalance: string;
    currencyBalance: string;
    currencyPayment: string;
    exchangeRate: string;
    traceID: string | null;
  },
): BalanceCheck {
  const rate = new Decimal(balance.exchangeRate);
  const converted = rate.greaterThan(0) ? new Decimal(amount).dividedBy(rate) : null;
  return {
    amountInCurrencyBalance: balance.amountInCurrencyBalance,
    currencyBalance: balance.currencyBalance,
    currencyPayment: balance.currencyPayment,
    exchangeRate: balance.exchangeRate,
    traceID: balance.traceID,
    amountInBalanceCurrency: converted ? converted.toFixed() : null,
    sufficient: converted ? converted.lessThanOrEqualTo(new Decimal(balance.amountInCurrencyBalance)) : null,
  };
}
