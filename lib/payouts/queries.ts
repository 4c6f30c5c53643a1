import "server-only";
import { can, type Role } from "@/lib/auth/permissions";
import { getDb } from "@/lib/db";
import type { OperationStatus } from "@/lib/generated/prisma/enums";
import { maskNumber } from "@/lib/recipients/mask";
import { explainPlatformRefusal, platformErrorWords, type ExplainedError } from "./errors";
import {
  canApprove,
  canCancel,
  canDecide,
  canRelease,
  countsAsApproval,
  refusalMessage,
  releaseRefusalMessage,
} from "./policy";
import { describeDuplicates, findSubmissionBlockers } from "./duplicates";
import { isSending, PAYOUT_STATUSES, type PayoutRequestStatus } from "./state";
import { payoutWords, type PayoutWords } from "./words";

/** The payment currency of console pay-outs (the platform's RUB methods; the spec shows RUB only). */
async function paymentCurrency(): Promise<string> {
  const snapshot = await getDb().balanceSnapshot.findFirst({
    orderBy: { takenAt: "desc" },
    select: { currencyPayment: true },
  });
  return snapshot?.currencyPayment ?? "RUB";
}

export type PayoutListItem = {
  id: string;
  idTransactionMerchant: string;
  status: PayoutRequestStatus;
  createdAt: string;
  amount: string;
  currency: string;
  paymentMethod: string;
  bankName: string;
  /** Always masked; the full number only through the audited reveal (revealPayoutRecipientNumberAction). */
  recipientMasked: string;
  recipientName: string;
  makerEmail: string;
  approvals: number;
  requiredApprovals: number;
  operationStatus: OperationStatus | null;
};

export function parseStatusFilter(value: unknown): PayoutRequestStatus | null {
  return typeof value === "string" && (PAYOUT_STATUSES as readonly string[]).includes(value)
    ? (value as PayoutRequestStatus)
    : null;
}

/** Newest first; the list always shows recipient numbers masked. */
export async function listPayouts(
  filter: { status?: PayoutRequestStatus | null; take?: number } = {},
): Promise<PayoutListItem[]> {
  const [rows, currency] = await Promise.all([
    getDb().payoutRequest.findMany({
      where: filter.status ? { status: filter.status } : {},
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: Math.min(Math.max(filter.take ?? 100, 1), 500),
      include: {
        maker: { select: { email: true } },
        approvals: { select: { decision: true, approver: { select: { disabledAt: true, role: true } } } },
        operation: { select: { status: true } },
      },
    }),
    paymentCurrency(),
  ]);
  return rows.map((r) => ({
    id: r.id,
    idTransactionMerchant: r.idTransactionMerchant,
    status: r.status,
    createdAt: r.createdAt.toISOString(),
    amount: r.amount.toFixed(),
    currency,
    paymentMethod: r.paymentMethod,
    bankName: r.bankName,
    recipientMasked: maskNumber(r.recipientNumber),
    recipientName: r.recipientName,
    makerEmail: r.maker.email,
    approvals: r.approvals.filter(countsAsApproval).length,
    requiredApprovals: r.requiredApprovals,
    operationStatus: r.operation?.status ?? null,
  }));
}

export type PayoutDetail = PayoutListItem & {
  clientID: string;
  clientIP: string;
  clientDateCreated: string;
  webhookUrl: string | null;
  makerId: string;
  overrideReason: string | null;
  submittedAt: string | null;
  updatedAt: string;
  operationId: string | null;
  lastTraceID: string | null;
  /** Set when the platform refused the pay-out (failed_to_submit). */
  error: ExplainedError | null;
  /**
   * Why a request waits, in the reader's language: held back by the duplicate guard (what it finds
   * now), or the platform's answer to the send lost (checked again automatically).
   */
  note: string | null;
  /** Handed to the worker or being submitted: the page follows it until it settles. */
  sending: boolean;
  decisions: Array<{
    approverEmail: string;
    approverName: string | null;
    decision: "approve" | "reject";
    comment: string;
    at: string;
  }>;
  /** What the viewer may do now (policy.ts; the actions ask it again). */
  can: { approve: boolean; reject: boolean; cancel: boolean; submit: boolean };
  /** Why the viewer cannot approve a request awaiting approval, when they have the permission. */
  approveBlockedReason: string | null;
};

export async function getPayoutDetail(
  id: string,
  viewer: { id: string; role: Role },
): Promise<PayoutDetail | null> {
  const [row, currency, decider] = await Promise.all([
    getDb().payoutRequest.findUnique({
      where: { id },
      include: {
        maker: { select: { email: true, disabledAt: true, passwordSetById: true } },
        approvals: {
          orderBy: { createdAt: "asc" },
          include: {
            approver: {
              // who set each approver's password: approving asks it (policy.ts canApprove)
              select: { email: true, name: true, disabledAt: true, role: true, passwordSetById: true },
            },
          },
        },
        operation: { select: { status: true } },
      },
    }),
    paymentCurrency(),
    // who set the viewer's password: approving asks it (policy.ts passwordsIndependent)
    getDb().user.findUnique({ where: { id: viewer.id }, select: { passwordSetById: true } }),
  ]);
  if (!row) return null;
  const words = await payoutWords();
  const approval = canApprove(row, { ...viewer, passwordSetById: decider?.passwordSetById ?? null });
  const approveBlockedReason =
    !approval.ok && approval.reason !== "forbidden" && row.status === "awaiting_approval"
      ? refusalMessage(words.t, approval)
      : null;
  const failed = row.status === "failed_to_submit";
  return {
    id: row.id,
    idTransactionMerchant: row.idTransactionMerchant,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    amount: row.amount.toFixed(),
    currency,
    paymentMethod: row.paymentMethod,
    bankName: row.bankName,
    recipientMasked: maskNumber(row.recipientNumber),
    recipientName: row.recipientName,
    makerEmail: row.maker.email,
    makerId: row.makerId,
    approvals: row.approvals.filter(countsAsApproval).length,
    requiredApprovals: row.requiredApprovals,
    operationStatus: row.operation?.status ?? null,
    clientID: row.clientID,
    clientIP: row.clientIP,
    clientDateCreated: row.clientDateCreated.toISOString(),
    webhookUrl: row.webhookUrl,
    overrideReason: row.overrideReason,
    submittedAt: row.submittedAt?.toISOString() ?? null,
    updatedAt: row.updatedAt.toISOString(),
    operationId: row.operationId,
    lastTraceID: row.lastTraceID,
    error: failed
      ? explainPlatformRefusal(
          {
            codeError: row.lastCodeError,
            message: row.lastMessage,
            traceID: row.lastTraceID,
            paymentMethod: row.paymentMethod,
            // what kind of refusal it was (a refused token, or an answer without an envelope) is kept
            // on the creation intent; a request refused before it was sent has none
            ...(await refusalKindOf(row.idTransactionMerchant)),
          },
          await platformErrorWords(words.locale),
        )
      : null,
    note: row.lastMessage === null ? null : await waitingNote(row, words),
    sending: isSending(row.status, row.lastMessage),
    decisions: row.approvals.map((a) => ({
      approverEmail: a.approver.email,
      approverName: a.approver.name,
      decision: a.decision,
      comment: a.comment,
      at: a.createdAt.toISOString(),
    })),
    can: {
      approve: approval.ok,
      // rejecting asks no passwords: it moves no money (policy.ts canDecide)
      reject: canDecide(row, viewer).ok,
      cancel: canCancel(row, viewer).ok,
      // a request on its way is the worker's; Send is for one the duplicate guard held back
      submit:
        row.status === "approved" &&
        !isSending(row.status, row.lastMessage) &&
        canRelease(row).ok &&
        can(viewer.role, "payouts.create"),
    },
    approveBlockedReason,
  };
}

async function refusalKindOf(idTransactionMerchant: string) {
  const intent = await getDb().creationIntent.findUnique({
    where: { idTransactionMerchant },
    select: { lastErrorKind: true, lastHttpStatus: true },
  });
  return { kind: intent?.lastErrorKind ?? null, httpStatus: intent?.lastHttpStatus ?? null };
}

/**
 * The note of a request that waits. Stored notes are records in the language of whoever caused them,
 * so the words are made again here: for a request the duplicate guard held back, from the earlier
 * pay-outs it finds now (the same check as submitPayout's).
 */
async function waitingNote(
  row: Parameters<typeof canRelease>[0] & {
    id: string;
    status: PayoutRequestStatus;
    idTransactionMerchant: string;
    recipientNumber: string;
    amount: { toFixed(): string };
  },
  words: PayoutWords,
): Promise<string | null> {
  if (row.status === "submitting") {
    // Given up on (creation-intent.ts: MAX_INTENT_AGE_MS), nothing checks it again by itself.
    const intent = await getDb().creationIntent.findUnique({
      where: { idTransactionMerchant: row.idTransactionMerchant },
      select: { state: true, gaveUpAt: true },
    });
    return intent?.state === "pending" && intent.gaveUpAt
      ? words.t("submit.unresolved", { id: row.idTransactionMerchant })
      : words.t("submit.answerLost");
  }
  if (row.status !== "approved") return null;
  const release = canRelease(row);
  if (!release.ok) return releaseRefusalMessage(words.t, release, row.requiredApprovals);
  const blocking = await getDb().$transaction((tx) =>
    findSubmissionBlockers(tx, row.recipientNumber, row.amount.toFixed(), row.id),
  );
  return blocking.length > 0 ? describeDuplicates(blocking, words) : words.t("detail.heldBackCleared");
}

/** The unmasked recipient number of a pay-out request: only for the audited reveal action. */
export async function readPayoutRecipientNumber(id: string): Promise<string | null> {
  const row = await getDb().payoutRequest.findUnique({ where: { id }, select: { recipientNumber: true } });
  return row?.recipientNumber ?? null;
}

export type PayoutProgress = {
  id: string;
  status: PayoutRequestStatus;
  sending: boolean;
  operationStatus: OperationStatus | null;
  updatedAt: string;
};

/** The little the pay-out page polls while a request is on its way (status only, nothing sensitive). */
export async function getPayoutProgress(id: string): Promise<PayoutProgress | null> {
  const row = await getDb().payoutRequest.findUnique({
    where: { id },
    select: {
      id: true,
      status: true,
      lastMessage: true,
      updatedAt: true,
      operation: { select: { status: true } },
    },
  });
  if (!row) return null;
  return {
    id: row.id,
    status: row.status,
    sending: isSending(row.status, row.lastMessage),
    operationStatus: row.operation?.status ?? null,
    updatedAt: row.updatedAt.toISOString(),
  };
}
