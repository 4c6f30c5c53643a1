// What both chaos tests check at the end, each as the list of what is wrong (empty when all holds).
import { getDb } from "@/lib/db";
import { statusRank } from "@/lib/operations/status";
import type { PlatformClient } from "@/lib/platform/client";
import { PlatformError } from "@/lib/platform/errors";
import type { Operation } from "@/lib/platform/schemas";

/** Every operation the platform lists, page by page. */
export async function allPlatformOperations(platform: PlatformClient): Promise<Operation[]> {
  const found: Operation[] = [];
  for (let skip = 0; ;) {
    const page = await platform.listOperations({ skip, take: 1000 });
    found.push(...page.operations);
    skip += page.operations.length;
    if (page.operations.length === 0 || skip >= page.totalNumberRecords) return found;
  }
}

/**
 * Whether every intent has a final operation on the platform, asked while its faults are still on: a
 * list call that failed on each of its attempts (20% injected 5xx, 3 attempts, several pages, a poll
 * every second) answers "not yet" instead of failing the run. Any other error still fails it.
 */
export async function allFinalOnPlatform(platform: PlatformClient, intents: Set<string>): Promise<boolean> {
  let listed: Operation[];
  try {
    listed = await allPlatformOperations(platform);
  } catch (error) {
    if (error instanceof PlatformError && error.kind === "transport") return false;
    throw error;
  }
  const ops = listed.filter((op) => intents.has(op.idTransactionMerchant));
  return ops.length >= intents.size && ops.every((op) => op.status === "success" || op.status === "failed");
}

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
