import "server-only";
import { getDb } from "@/lib/db";
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

// How long a worker may hold a delivery while it reads the operation back before another may take it.
const CLAIM_SECONDS = 60;

/**
 * Processes received webhooks; several workers may run at once. A delivery is claimed with a short lease
 * (SKIP LOCKED, no transaction held across the read-back), then decided: non-final statuses are applied
 * from the body; a final status is applied only after GET by id confirms it, and a read-back that
 * disagrees is applied as the truth and flagged. Returns how many deliveries were handled.
 */
export async function processPendingWebhooks(
  platform: Pick<PlatformClient, "getOperation">,
  limit = 100,
): Promise<number> {
  const db = getDb();
  let handled = 0;
  while (handled < limit) {
    const [row] = await db.$queryRaw<Claimed[]>`
      UPDATE "WebhookDelivery" SET "claimedUntil" = now() + make_interval(secs => ${CLAIM_SECONDS}),
                                   "processingAttempts" = "processingAttempts" + 1
      WHERE id = (SELECT id FROM "WebhookDelivery"
                  WHERE outcome = 'received' AND ("claimedUntil" IS NULL OR "claimedUntil" < now())
                  ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED)
      RETURNING id, body, "processingAttempts"`;
    if (!row) break;
    const decision = await decide(row, platform);
    await db.webhookDelivery.update({
      where: { id: row.id },
      data: decision
        ? {
            outcome: decision.outcome,
            outcomeDetail: decision.detail,
            readBackTraceID: decision.readBackTraceID,
            processedAt: new Date(),
            claimedUntil: null,
          }
        : { claimedUntil: new Date(Date.now() + retryDelayMs(row.processingAttempts)) },
    });
    handled++;
  }
  return handled;
}

/** A failed read-back is tried again after 1, 2, 4 ... seconds (at most a minute). */
function retryDelayMs(attempts: number): number {
  return Math.min(60_000, 1000 * 2 ** (attempts - 1));
}

async function decide(row: Claimed, platform: Pick<PlatformClient, "getOperation">): Promise<Decision> {
  const { operation, traceID } = parseWebhookBody(row.body);
  const sourceRef = `webhook:${row.id}`;
  if (!isFinal(operation.status)) {
    const applied = await applySnapshot(operation, "webhook", { sourceRef });
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
    if (row.processingAttempts >= MAX_PROCESSING_ATTEMPTS) {
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
  const applied = await applySnapshot(readBack.operation, "readBack", { sourceRef: readBack.traceID });
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
