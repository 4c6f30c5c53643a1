import "server-only";
import { getDb } from "@/lib/db";
import { FINAL_STATUSES_SQL } from "@/lib/operations/status";
import { Prisma } from "@/lib/generated/prisma/client";

/** Operations flagged per statement, each batch its own transaction. */
const BATCH = 500;

/**
 * Flags operations that have stayed in a non-final status for longer than `maxAgeMinutes` since their
 * last status change; returns how many were newly flagged. Reaching a final status clears the flag.
 *
 * In batches along the primary key, each committed on its own, skipping the rows a webhook or a
 * reconciliation page is writing (the next scan flags them if they are still open): one statement for
 * all of them held thousands of rows locked while webhook processing waited for them (issue 16: 6.6 s,
 * the inbox lag from 0.2 to 6.7 s). `yieldTo` (yieldToWebhooks, for the scheduled job) runs between
 * batches, as it does between reconciliation pages.
 */
export async function flagStuckOperations(
  maxAgeMinutes: number,
  now = new Date(),
  options: { batchSize?: number; yieldTo?: () => Promise<unknown> } = {},
): Promise<number> {
  const cutoff = new Date(now.getTime() - maxAgeMinutes * 60_000);
  const batchSize = options.batchSize ?? BATCH;
  let after = "00000000-0000-0000-0000-000000000000";
  let flagged = 0;
  for (;;) {
    const rows = await getDb().$queryRaw<{ id: string }[]>`
      UPDATE "Operation" o SET "stuckFlaggedAt" = ${now}
      FROM (SELECT id FROM "Operation"
            WHERE id > ${after}::uuid AND "stuckFlaggedAt" IS NULL
              AND status NOT IN (${Prisma.raw(FINAL_STATUSES_SQL)})
              AND COALESCE("dateUpdated", "dateAdded") < ${cutoff}
            ORDER BY id LIMIT ${batchSize} FOR UPDATE SKIP LOCKED) AS due
      WHERE o.id = due.id
      RETURNING o.id::text AS id`;
    flagged += rows.length;
    if (rows.length < batchSize) return flagged;
    after = rows.reduce((last, r) => (r.id > last ? r.id : last), after);
    await options.yieldTo?.();
  }
}
