// What both chaos tests check at the end, each as the list of what is wrong (empty when all holds).
import { getDb } from "@/lib/db";
import { statusRank } from "@/lib/operations/status";
import type { Operation } from "@/lib/platform/schemas";

/** Intents with other than exactly one platform operation; `expected` is how many intents there were. */
export function intentsWithoutExactlyOneOperation(platform: Operation[], expected: number): string[] {
  const perIntent = new Map<string, number>();
  for (const op of platform)
    perIntent.set(op.idTransactionMerchant, (perIntent.get(op.idTransactionMerchant) ?? 0) + 1);
  const wrong = [...perIntent].filter(([, n]) => n !== 1).map(([intent, n]) => `${intent}: ${n}`);
  if (perIntent.size !== expected) wrong.push(`${perIntent.size} intents with operations of ${expected}`);
  return wrong;
}

/** Recorded status changes that went back (out of a final status, or down the lifecycle). */
export async function statusRegressions() {
  const history = await getDb().operationStatusChange.findMany({ orderBy: { id: "asc" } });
  return history.filter(
    (h) =>
      h.fromStatus &&
      (h.fromStatus === "success" ||
        h.fromStatus === "failed" ||
        statusRank(h.toStatus) < statusRank(h.fromStatus)),
  );
}

/** Events (`operationId:status`) the platform counts as delivered that the inbox does not hold. */
export async function eventsMissingFromInbox(delivered: string[]): Promise<string[]> {
  const inbox = await getDb().webhookDelivery.groupBy({
    by: ["operationId", "operationStatus"],
    _count: true,
  });
  const stored = new Set(inbox.map((row) => `${row.operationId}:${row.operationStatus}`));
  return delivered.filter((key) => !stored.has(key));
}

/** Deliveries the receiver refused or could not process: none, when every sender was the platform. */
export function refusedOrFailedDeliveries(): Promise<number> {
  return getDb().webhookDelivery.count({ where: { outcome: { in: ["failed", "malformed", "rejected"] } } });
}
