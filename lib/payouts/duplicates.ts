import "server-only";
import type { Prisma } from "@/lib/generated/prisma/client";
import { Decimal } from "@/lib/money/decimal";
import { formatMoney } from "@/lib/money/format";
import { finalStatuses, isFinal } from "@/lib/operations/status";
import { countedForRecipient, limitOf, RECIPIENT_WINDOW_HOURS, type PayoutRules } from "./policy";
import { OPEN_STATUSES, type PayoutRequestStatus } from "./state";
import type { PayoutWords } from "./words";

type Tx = Prisma.TransactionClient;

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
 * in any status that is not final (lib/operations/status.ts: one just created or booking may still go
 * to pending_retry, and the spec forbids a new operation then; one in progress may still succeed), and
 * an open console request (awaiting approval, approved or submitting) that has not reached the platform
 * yet - the same pay-out entered twice. Pay-outs created outside the console carry no recipient in their
 * reads, so only the console's own requests can be matched.
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
      OR: [{ status: { in: [...OPEN_STATUSES] } }, { operation: { status: { notIn: [...finalStatuses] } } }],
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
    r.operation && !isFinal(r.operation.status)
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

/**
 * Sum of the recipient's counted pay-outs (payment currency), for requiredApprovals; `excludeId` leaves
 * out the request being decided.
 */
export async function recipientWindowSum(
  tx: Pick<Tx, "payoutRequest">,
  recipientNumber: string,
  now = new Date(),
  excludeId?: string,
): Promise<Decimal> {
  const counted = countedForRecipient(recipientNumber, now);
  const { _sum } = await tx.payoutRequest.aggregate({
    _sum: { amount: true },
    where: excludeId ? { AND: [counted, { id: { not: excludeId } }] } : counted,
  });
  return new Decimal(_sum.amount?.toFixed() ?? "0");
}

/**
 * What holds back the submission of an approved request: a twin on the platform and not finished, or a
 * twin request being submitted (a twin still awaiting approval or approved has not been sent: whichever
 * goes first blocks the other).
 */
export async function findSubmissionBlockers(
  tx: Pick<Tx, "payoutRequest">,
  recipientNumber: string,
  amount: string,
  id: string,
): Promise<Duplicate[]> {
  const found = await findDuplicates(tx, recipientNumber, amount, id);
  return found.filter((d) => d.kind === "operation" || d.status === "submitting");
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
      : d.status === "in_progress"
        ? t("duplicate.operationInProgress")
        : t("duplicate.operationNotFinished");
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
