import "server-only";
import { getDb } from "@/lib/db";
import { finalStatuses } from "@/lib/operations/status";

export type Attention = {
  approvalsWaiting: number;
  /** Pay-outs still `submitting` whose creation Paydesk stopped resending: nobody knows if they exist. */
  payoutsUnanswered: number;
  /** Pay-ins and payment links whose creation Paydesk stopped resending (the pay-outs are counted above). */
  creationsUnanswered: number;
  stuckOperations: number;
  /** Deliveries whose processing ended `failed` or `disagreement` within the last 24 hours. */
  webhookFailures24h: number;
  /** The oldest delivery still waiting to be processed (ISO), or null when the queue is empty. */
  oldestUnprocessedWebhookAt: string | null;
  /** When the last complete reconciliation finished (ISO), or null when none has. */
  lastCompleteReconciliationAt: string | null;
  openDriftItems: number;
};

/** What needs attention now; all counts come from the database, nothing from the platform. */
export async function getAttention(now = new Date()): Promise<Attention> {
  const db = getDb();
  const dayAgo = new Date(now.getTime() - 24 * 60 * 60_000);
  const [
    approvalsWaiting,
    unanswered,
    creationsUnanswered,
    stuckOperations,
    webhookFailures24h,
    oldestWaiting,
    lastRun,
    openDriftItems,
  ] = await Promise.all([
    db.payoutRequest.count({ where: { status: "awaiting_approval" } }),
    db.$queryRaw<{ count: bigint }[]>`
        SELECT count(*) AS count FROM "PayoutRequest" p
          JOIN "CreationIntent" i ON i."idTransactionMerchant" = p."idTransactionMerchant"
        WHERE p.status = 'submitting' AND i.state = 'pending' AND i."gaveUpAt" IS NOT NULL`,
    db.creationIntent.count({
      where: { state: "pending", gaveUpAt: { not: null }, kind: { not: "payOut" } },
    }),
    db.operation.count({
      where: { stuckFlaggedAt: { not: null }, status: { notIn: [...finalStatuses] } },
    }),
    db.webhookDelivery.count({
      where: { outcome: { in: ["failed", "disagreement"] }, receivedAt: { gte: dayAgo } },
    }),
    db.webhookDelivery.findFirst({
      where: { outcome: "received" },
      orderBy: { id: "asc" },
      select: { receivedAt: true },
    }),
    db.reconciliationRun.findFirst({
      where: { status: "completed", finishedAt: { not: null } },
      orderBy: { finishedAt: "desc" },
      select: { finishedAt: true },
    }),
    db.driftItem.count({ where: { state: "open" } }),
  ]);
  return {
    approvalsWaiting,
    payoutsUnanswered: Number(unanswered[0]?.count ?? 0),
    creationsUnanswered,
    stuckOperations,
    webhookFailures24h,
    oldestUnprocessedWebhookAt: oldestWaiting?.receivedAt.toISOString() ?? null,
    lastCompleteReconciliationAt: lastRun?.finishedAt?.toISOString() ?? null,
    openDriftItems,
  };
}
