import "server-only";
import { getDb } from "@/lib/db";
import { getLog } from "@/lib/log";
import { applySnapshotsBatch, type BatchItemResult } from "@/lib/operations/mirror/apply-batch";
import { FINAL_STATUSES_SQL } from "@/lib/operations/status";
import { Prisma } from "@/lib/generated/prisma/client";
import type { PlatformClient } from "@/lib/platform/client";
import { isPlatformError } from "@/lib/platform/errors";

/** How many open operations one incremental run reads by id; the next runs go on with the others. */
export const OPEN_READS_PER_RUN = 200;
const READS_IN_FLIGHT = 8;

export type OpenOperationsRead = {
  /** Each operation read, applied as its own batch: its read's traceID goes into its history. */
  applied: { results: BatchItemResult[]; traceID: string | null }[];
  /** Operations the platform says it does not have. */
  missing: string[];
  /** Time given to webhook processing between batches of reads (`yieldTo`), in ms. */
  yieldedMs: number;
};

/**
 * The mirror's open operations added at or before `reachedBack`, where an incremental run's walk of the
 * list stopped: each is read by id (GET /operation/operation/platform/{id}), the least recently confirmed
 * first, and applied by the same rules as a page; one the platform does not have becomes drift once. A
 * read that fails is logged, and the operation stays first in line for the next run. Before, the walk
 * went back to the oldest open operation: one left open for days made every run read the list back to it.
 */
export async function readOpenOperations(
  reachedBack: Date,
  platform: Pick<PlatformClient, "getOperation">,
  options: { limit?: number; yieldTo?: () => Promise<number> } = {},
): Promise<OpenOperationsRead> {
  // One the platform no longer has is drift already (open until someone resolves it): not read again.
  const open = await getDb().$queryRaw<{ id: string }[]>`
    SELECT o.id::text FROM "Operation" o
    WHERE o.status NOT IN (${Prisma.raw(FINAL_STATUSES_SQL)}) AND o."dateAdded" <= ${reachedBack}
      AND NOT EXISTS (SELECT 1 FROM "DriftItem" d
        WHERE d."operationId" = o.id AND d.kind = 'missingOnPlatform' AND d.state = 'open')
    ORDER BY o."snapshotReceivedAt", o.id
    LIMIT ${options.limit ?? OPEN_READS_PER_RUN}`;
  const read: OpenOperationsRead = { applied: [], missing: [], yieldedMs: 0 };
  for (let i = 0; i < open.length; i += READS_IN_FLIGHT) {
    if (options.yieldTo) read.yieldedMs += await options.yieldTo();
    await Promise.all(
      open.slice(i, i + READS_IN_FLIGHT).map(async ({ id }) => {
        const readAt = new Date();
        try {
          const { operation, traceID } = await platform.getOperation(id);
          if (!operation) return void read.missing.push(id);
          const results = await applySnapshotsBatch([operation], "reconciliation", traceID, readAt);
          read.applied.push({ results, traceID });
        } catch (error) {
          if (!isPlatformError(error)) throw error;
          getLog().warn(
            { operationId: id, traceID: error.traceID, err: error },
            "open operation read failed",
          );
        }
      }),
    );
  }
  return read;
}
