import "server-only";
import { getDb } from "@/lib/db";
import { FINAL_STATUSES_SQL } from "@/lib/operations/status";
import { Prisma } from "@/lib/generated/prisma/client";

/**
 * Flags operations that have stayed in a non-final status for longer than `maxAgeMinutes` since their
 * last status change; returns how many were newly flagged. Reaching a final status clears the flag.
 */
export async function flagStuckOperations(maxAgeMinutes: number, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - maxAgeMinutes * 60_000);
  return getDb().$executeRaw`
    UPDATE "Operation" SET "stuckFlaggedAt" = ${now}
    WHERE "stuckFlaggedAt" IS NULL
      AND status NOT IN (${Prisma.raw(FINAL_STATUSES_SQL)})
      AND COALESCE("dateUpdated", "dateAdded") < ${cutoff}`;
}
