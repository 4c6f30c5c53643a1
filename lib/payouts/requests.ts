import "server-only";
import { randomUUID } from "node:crypto";
import type { Actor } from "@/lib/audit/log";
import { audit } from "@/lib/audit/log";
import type { Role } from "@/lib/auth/permissions";
import { getDb } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import { Decimal, isDecimalString } from "@/lib/money/decimal";
import { maskNumber } from "@/lib/operations/mask";
import { KNOWN_MONO_BANK_METHODS } from "@/lib/platform/payment-methods";
import { getSettings } from "@/lib/settings/settings";
import type { PayoutForm } from "./schemas";
import type { PayoutRequestStatus } from "./state";

/** The staff member making a change: who (for rules) and how they appear in the audit log. */
export type PayoutActor = { id: string; email: string; role: Role; ip?: string | null };

export function auditActor(actor: PayoutActor): Actor {
  return { userId: actor.id, email: actor.email, ip: actor.ip ?? null };
}

type Tx = Prisma.TransactionClient;

// ---- approval thresholds ------------------------------------------------------------------------

export type Thresholds = { autoApproveBelow: string | null; twoApprovalsAbove: string | null };

/**
 * Approvals a request needs (amounts in the payment currency): below `autoApproveBelow` none (the
 * request is approved at once and submitted by the maker's action), above `twoApprovalsAbove` two,
 * otherwise one. An unset or malformed threshold is no rule.
 */
export function requiredApprovalsFor(amount: string, thresholds: Thresholds): 0 | 1 | 2 {
  const value = new Decimal(amount);
  const limit = (s: string | null) =>
    s !== null && isDecimalString(s.trim()) ? new Decimal(s.trim()) : null;
  const auto = limit(thresholds.autoApproveBelow);
  const two = limit(thresholds.twoApprovalsAbove);
  if (auto && value.lessThan(auto)) return 0;
  if (two && value.greaterThan(two)) return 2;
  return 1;
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
  | { kind: "request"; payoutRequestId: string; status: PayoutRequestStatus; idTransactionMerchant: string };

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
        { status: { in: ["awaiting_approval", "approved", "submitting"] } },
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

/** Serialises creations and submissions to one recipient and amount (the guard's check-then-act). */
export async function lockRecipientAmount(tx: Tx, recipientNumber: string, amount: string): Promise<void> {
  const key = `${recipientNumber}|${new Decimal(amount).toFixed()}`;
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${key}, 7371))`;
}

export function describeDuplicates(duplicates: Duplicate[]): string {
  // An operation on the platform weighs more than a request that has not been sent.
  const first = duplicates.find((d) => d.kind === "operation") ?? duplicates[0];
  if (!first) return "";
  const what =
    first.kind === "operation"
      ? `a pay-out to this recipient for this amount is ${first.status === "pending_retry" ? "waiting for the platform's retry (pending_retry)" : "in progress"} on the platform`
      : `a pay-out request to this recipient for this amount is already ${first.status.replace(/_/g, " ")}`;
  return `Blocked: ${what}. A second one could pay twice. An admin can override this with a reason.`;
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

/**
 * Stores a pay-out request (status awaiting_approval, or approved when no approval is needed) with its
 * idTransactionMerchant fixed from now on. Runs the duplicate guard under a lock on recipient and amount;
 * an admin may override it with a reason, which is stored and audited. Bank, method and balance are
 * checked by the caller (they need the platform).
 */
export async function createPayoutRequest(
  form: PayoutForm,
  actor: PayoutActor,
  options: { thresholds?: Thresholds } = {},
): Promise<CreateOutcome> {
  const thresholds = options.thresholds ?? (await getSettings());
  const requiredApprovals = requiredApprovalsFor(form.amount, thresholds);
  const idTransactionMerchant = form.idTransactionMerchant ?? newMerchantId();
  const db = getDb();

  return db.$transaction(async (tx) => {
    await lockRecipientAmount(tx, form.recipientNumber, form.amount);
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
          message: "This merchant id is already used by another request.",
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

    const duplicates = await findDuplicates(tx, form.recipientNumber, form.amount);
    if (duplicates.length > 0 && !form.overrideReason) {
      return {
        ok: false,
        code: "duplicate",
        message: describeDuplicates(duplicates),
        duplicates,
        canOverride: actor.role === "admin",
      };
    }
    if (duplicates.length > 0 && actor.role !== "admin") {
      return {
        ok: false,
        code: "override_forbidden",
        message: "Only an admin can override the duplicate block.",
      };
    }
    const overrideReason = duplicates.length > 0 ? (form.overrideReason ?? null) : null;
    const status: PayoutRequestStatus = requiredApprovals === 0 ? "approved" : "awaiting_approval";
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
        requiredApprovals,
        makerId: actor.id,
        overrideReason,
      },
    });
    const who = auditActor(actor);
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
        requiredApprovals,
        thresholds: {
          autoApproveBelow: thresholds.autoApproveBelow,
          twoApprovalsAbove: thresholds.twoApprovalsAbove,
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
        after: { status, autoApproveBelow: thresholds.autoApproveBelow },
      });
    }
    return { ok: true, id: created.id, idTransactionMerchant, status, requiredApprovals, existing: false };
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
