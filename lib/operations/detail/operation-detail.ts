import "server-only";
import { getDb } from "@/lib/db";
import type { ApiCall, WebhookDelivery } from "@/lib/generated/prisma/client";
import type { OperationStatus, SnapshotSource, WebhookOutcome } from "@/lib/generated/prisma/enums";
import { effectiveAmountRandomized } from "@/lib/platform/amounts";
import type { OperationType } from "@/lib/platform/schemas";
import { getBalanceCurrency } from "@/lib/operations/balance-currency";
import { maskNumber, maskNumbersInJson } from "@/lib/recipients/mask";
import { getSettings } from "@/lib/settings/settings";
import { olderThanRetention, retentionPeriods, type RetentionPeriod } from "@/lib/settings/retention-periods";
import { buildTimeline, type TimelineEntry } from "./timeline";

const text = (d: { toFixed(): string } | null) => (d === null ? null : d.toFixed());

export type OperationDetail = {
  id: string;
  typeOperation: OperationType;
  status: OperationStatus;
  idTransactionMerchant: string;
  dateAdded: string;
  dateUpdated: string | null;
  firstSeenAt: string;
  mirroredAt: string;
  lastSource: SnapshotSource;
  stuckFlaggedAt: string | null;
  /** Payment currency (the operation's own). */
  currency: string;
  /** Balance currency of the merchant; null until a balance has been read. */
  balanceCurrency: string | null;
  amountInitial: string;
  amountRandomized: string | null;
  amount: string;
  amountComission: string | null;
  amountInCurrencyBalance: string | null;
  amountComissionInCurrencyBalance: string | null;
  exchangeRate: string | null;
  paymentMethod: string | null;
  bankName: string | null;
  nameMediator: string | null;
  numberMasked: string | null;
  hasNumber: boolean;
  linkPaymentForm: string | null;
  payoutRequest: { id: string; status: string; recipientName: string } | null;
  timeline: TimelineEntry[];
  webhooks: WebhookItem[];
  apiCalls: ApiCallItem[];
  /** How long retention keeps the webhooks and API calls listed, and whether some may be gone. */
  retention: { apiCalls: RetentionNote; webhooks: RetentionNote };
  /** The last snapshot as received, recipient numbers masked. */
  raw: unknown;
};

/**
 * A record kind's retention as the operation page states it: `mayBeIncomplete` when the operation is
 * older than `days` (its dateAdded, when it was first seen, or its oldest status change), so records of
 * it may have been deleted and an empty list does not mean there were none. Not when retention has kept
 * them all along (lib/retention/prune.ts): those of a pay-out, and the webhooks of an operation with a
 * drift item not resolved yet, opened before any of them was old enough to go.
 */
export type RetentionNote = RetentionPeriod & { mayBeIncomplete: boolean };

export type WebhookItem = {
  id: string;
  receivedAt: string;
  outcome: WebhookOutcome;
  /** The stored note (lib/webhooks/outcome-notes.ts), worded where it is shown. */
  outcomeCode: string | null;
  outcomeArgs: unknown;
  outcomeDetail: string | null;
  /** The operation the delivery named, once it was read. */
  operationId: string | null;
  operationStatus: OperationStatus | null;
  traceID: string | null;
  readBackTraceID: string | null;
  processedAt: string | null;
};

/** The stored fields of a recorded platform call that the pages and the support bundle show. */
export const SHOWN_CALL_FIELDS = [
  "method",
  "path",
  "httpStatus",
  "envelopeStatus",
  "codeError",
  "message",
  "traceID",
  "latencyMs",
  "error",
] as const;
type ShownCallFields = Pick<ApiCall, (typeof SHOWN_CALL_FIELDS)[number]>;

/** A recorded platform call as the pages show it: the stored row, id and time as text, and who made it. */
export type ApiCallItem = ShownCallFields & { id: string; startedAt: string; actorEmail: string | null };

/** The shown fields of a call, and nothing else it carries. */
export function shownCallFields(c: ShownCallFields): ShownCallFields {
  return Object.fromEntries(SHOWN_CALL_FIELDS.map((k) => [k, c[k]])) as ShownCallFields;
}

/** A recorded platform call as the pages show it (who made it is added by each page its own way). */
export function presentApiCall(c: ApiCall): Omit<ApiCallItem, "actorEmail"> {
  return { id: c.id.toString(), startedAt: c.startedAt.toISOString(), ...shownCallFields(c) };
}

/** The stored fields of a webhook delivery that the pages show (never its body). */
export const SHOWN_WEBHOOK_SELECT = {
  id: true,
  receivedAt: true,
  outcome: true,
  outcomeCode: true,
  outcomeArgs: true,
  outcomeDetail: true,
  operationId: true,
  operationStatus: true,
  traceID: true,
  readBackTraceID: true,
  processedAt: true,
} as const;
type ShownWebhook = Pick<WebhookDelivery, keyof typeof SHOWN_WEBHOOK_SELECT>;

/** A webhook delivery as the pages show it: the stored note, id and times as text. */
export function presentWebhook(w: ShownWebhook): WebhookItem {
  return {
    id: w.id.toString(),
    receivedAt: w.receivedAt.toISOString(),
    outcome: w.outcome,
    outcomeCode: w.outcomeCode,
    outcomeArgs: w.outcomeArgs,
    outcomeDetail: w.outcomeDetail,
    operationId: w.operationId,
    operationStatus: w.operationStatus,
    traceID: w.traceID,
    readBackTraceID: w.readBackTraceID,
    processedAt: w.processedAt?.toISOString() ?? null,
  };
}

/** Everything known about one mirrored operation, ready for the browser; null when not mirrored. */
export async function getOperationDetail(id: string, now = new Date()): Promise<OperationDetail | null> {
  const db = getDb();
  const op = await db.operation.findUnique({
    where: { id },
    include: {
      history: { orderBy: [{ recordedAt: "asc" }, { id: "asc" }] },
      payoutRequest: {
        select: {
          id: true,
          status: true,
          recipientName: true,
          recipientNumber: true,
          bankName: true,
          createdAt: true,
        },
      },
    },
  });
  if (!op) return null;
  const [webhooks, apiCalls, balanceCurrency, settings, unresolvedDrift] = await Promise.all([
    db.webhookDelivery.findMany({
      where: { operationId: id },
      orderBy: { receivedAt: "asc" },
      select: SHOWN_WEBHOOK_SELECT,
      take: 500,
    }),
    db.apiCall.findMany({
      where: { OR: [{ operationId: id }, { idTransactionMerchant: op.idTransactionMerchant }] },
      orderBy: { startedAt: "asc" },
      include: { actor: { select: { email: true } } },
      take: 500,
    }),
    getBalanceCurrency(),
    getSettings(),
    db.driftItem.findFirst({
      where: { operationId: id, state: { not: "resolved" } },
      orderBy: { createdAt: "asc" },
      select: { createdAt: true },
    }),
  ]);
  // The earliest moment anything about the operation can have been recorded (history is in time order).
  const since = new Date(
    Math.min(
      op.dateAdded.getTime(),
      op.firstSeenAt.getTime(),
      op.history[0]?.recordedAt.getTime() ?? Infinity,
    ),
  );
  const periods = retentionPeriods(settings);
  // Since when retention has kept every record of a kind (lib/retention/prune.ts), if it does: those of a
  // pay-out for ever (its request exists before the operation; calls by the operation's id or by its
  // idTransactionMerchant, which is the request's), an operation's webhooks while a drift item about it is
  // not resolved. A drift item does not keep a call recorded before the operation's id was known (only by
  // its idTransactionMerchant), so it does not speak for the calls. Records old enough to go before then
  // may be gone.
  const keptSince = (...from: (Date | null | undefined)[]) =>
    from.reduce<Date>((earliest, at) => (at && at < earliest ? at : earliest), now);
  const note = (period: RetentionPeriod, kept: Date): RetentionNote => ({
    ...period,
    mayBeIncomplete: olderThanRetention(since, period, kept),
  });
  const payoutKeptSince = op.payoutRequest?.createdAt;
  const number = op.detailsNumber ?? op.payoutRequest?.recipientNumber ?? null;
  return {
    id: op.id,
    typeOperation: op.typeOperation,
    status: op.status,
    idTransactionMerchant: op.idTransactionMerchant,
    dateAdded: op.dateAdded.toISOString(),
    dateUpdated: op.dateUpdated?.toISOString() ?? null,
    firstSeenAt: op.firstSeenAt.toISOString(),
    mirroredAt: op.mirroredAt.toISOString(),
    lastSource: op.lastSource,
    stuckFlaggedAt: op.stuckFlaggedAt?.toISOString() ?? null,
    currency: op.currency,
    balanceCurrency,
    amountInitial: op.amountInitial.toFixed(),
    amountRandomized: effectiveAmountRandomized(op).toFixed(),
    amount: op.amount.toFixed(),
    amountComission: text(op.amountComission),
    amountInCurrencyBalance: text(op.amountInCurrencyBalance),
    amountComissionInCurrencyBalance: text(op.amountComissionInCurrencyBalance),
    exchangeRate: text(op.exchangeRate),
    paymentMethod: op.paymentMethod,
    bankName: op.detailsBankName ?? op.payoutRequest?.bankName ?? null,
    nameMediator: op.detailsNameMediator ?? op.payoutRequest?.recipientName ?? null,
    numberMasked: number === null ? null : maskNumber(number),
    hasNumber: number !== null,
    linkPaymentForm: op.linkPaymentForm,
    payoutRequest: op.payoutRequest
      ? {
          id: op.payoutRequest.id,
          status: op.payoutRequest.status,
          recipientName: op.payoutRequest.recipientName,
        }
      : null,
    timeline: buildTimeline(op.dateAdded, op.history, now),
    webhooks: webhooks.map(presentWebhook),
    apiCalls: apiCalls.map((c) => ({ ...presentApiCall(c), actorEmail: c.actor?.email ?? null })),
    retention: {
      apiCalls: note(periods.apiCalls, keptSince(payoutKeptSince)),
      webhooks: note(periods.webhooks, keptSince(payoutKeptSince, unresolvedDrift?.createdAt)),
    },
    raw: maskNumbersInJson(op.raw),
  };
}

/** The unmasked recipient number of an operation: only for the audited reveal action. */
export async function readRecipientNumber(id: string): Promise<string | null> {
  const op = await getDb().operation.findUnique({
    where: { id },
    select: { detailsNumber: true, payoutRequest: { select: { recipientNumber: true } } },
  });
  return op?.detailsNumber ?? op?.payoutRequest?.recipientNumber ?? null;
}
