import "server-only";
import { getDb } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { WebhookOutcome } from "@/lib/generated/prisma/enums";
import { applySnapshot, type ApplyOutcome } from "@/lib/operations/apply-snapshot";
import { isFinal } from "@/lib/operations/status";
import type { PlatformClient } from "@/lib/platform/client";
import { parseWebhookBody } from "@/lib/platform/webhook-body";

/** A failed read-back is retried on later passes; after this many attempts the delivery is `failed`. */
export const MAX_PROCESSING_ATTEMPTS = 8;

type Claimed = { id: bigint; body: string; processingAttempts: number };
type Decision = { outcome: WebhookOutcome; detail: string | null; readBackTraceID: string | null } | null;

const outcomeOf: Record<ApplyOutcome, WebhookOutcome> = {
  inserted: "applied",
  updated: "applied",
  unchanged: "duplicate",
  stale: "stale",
  conflict: "disagreement",
};

/**
 * Processes received webhooks one at a time (several workers may run: rows are claimed with SKIP LOCKED).
 * Non-final statuses are applied from the body; a final status is applied only after GET by id confirms
 * it, and a read-back that disagrees is applied as the truth and flagged. Returns how many were handled.
 */
export async function processPendingWebhooks(
  platform: Pick<PlatformClient, "getOperation">,
  limit = 100,
): Promise<number> {
  let handled = 0;
  while (handled < limit) {
    const done = await getDb().$transaction(
      async (tx) => {
        const [row] = await tx.$queryRaw<Claimed[]>`
          SELECT id, body, "processingAttempts" FROM "WebhookDelivery"
          WHERE outcome = 'received' ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED`;
        if (!row) return false;
        const decision = await decide(tx, row, platform);
        await tx.webhookDelivery.update({
          where: { id: row.id },
          data: decision
            ? {
                outcome: decision.outcome,
                outcomeDetail: decision.detail,
                readBackTraceID: decision.readBackTraceID,
                processedAt: new Date(),
                processingAttempts: { increment: 1 },
              }
            : { processingAttempts: { increment: 1 } },
        });
        return true;
      },
      { timeout: 60_000 },
    );
    if (!done) break;
    handled++;
  }
  return handled;
}

async function decide(
  tx: Prisma.TransactionClient,
  row: Claimed,
  platform: Pick<PlatformClient, "getOperation">,
): Promise<Decision> {
  const { operation, traceID } = parseWebhookBody(row.body);
  const sourceRef = `webhook:${row.id}`;
  if (!isFinal(operation.status)) {
    const applied = await applySnapshot(operation, "webhook", { sourceRef, tx });
    return {
      outcome: outcomeOf[applied.outcome],
      detail: describe(applied.outcome, traceID),
      readBackTraceID: null,
    };
  }
  // Final status: business decisions rest on the read-back (spec, Receiver requirements 4).
  let readBack;
  try {
    readBack = await platform.getOperation(operation.id);
  } catch (error) {
    if (row.processingAttempts + 1 >= MAX_PROCESSING_ATTEMPTS) {
      return {
        outcome: "failed",
        detail: `read-back failed ${MAX_PROCESSING_ATTEMPTS} times: ${(error as Error).message}`,
        readBackTraceID: null,
      };
    }
    return null;
  }
  if (!readBack.operation) {
    return {
      outcome: "disagreement",
      detail: `the platform does not know operation ${operation.id}`,
      readBackTraceID: readBack.traceID,
    };
  }
  const applied = await applySnapshot(readBack.operation, "readBack", { sourceRef: readBack.traceID, tx });
  if (readBack.operation.status !== operation.status) {
    return {
      outcome: "disagreement",
      detail: `webhook said ${operation.status}, read-back says ${readBack.operation.status} (applied the read-back)`,
      readBackTraceID: readBack.traceID,
    };
  }
  return {
    outcome: outcomeOf[applied.outcome],
    detail: describe(applied.outcome, traceID),
    readBackTraceID: readBack.traceID,
  };
}

function describe(outcome: ApplyOutcome, traceID: string | null): string | null {
  const trace = traceID ? ` (webhook traceID ${traceID})` : "";
  switch (outcome) {
    case "unchanged":
      return `already mirrored${trace}`;
    case "stale":
      return `older than the mirrored state${trace}`;
    case "conflict":
      return `would change a final status${trace}`;
    default:
      return null;
  }
}
