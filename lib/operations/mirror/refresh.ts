import "server-only";
import type { ApplyOutcome } from "@/lib/operations/mirror/apply-snapshot";
import { applySnapshot } from "@/lib/operations/mirror/apply-snapshot";
import type { OperationStatus } from "@/lib/generated/prisma/enums";
import type { PlatformClient } from "@/lib/platform/client";
import { isPlatformError, type PlatformErrorKind } from "@/lib/platform/errors";
import { getPlatformClient } from "@/lib/platform/from-env";
import { getDb } from "@/lib/db";
import { createRateLimit } from "@/lib/http/rate-limit";
import { getLog } from "@/lib/log";

export const REFRESHES_PER_MINUTE = 30;

/** Per user, per process (see lib/http/rate-limit.ts): each refresh is a platform call with the merchant's token. */
export const refreshRateLimit = createRateLimit({ limit: REFRESHES_PER_MINUTE, windowMs: 60_000 });

/** A failure is worded for the reader by the action (operations.detail.refreshFailed.<kind>). */
export type RefreshResult =
  | { ok: true; outcome: ApplyOutcome; status: OperationStatus; traceID: string | null }
  | { ok: false; code: "rate_limited" }
  | { ok: false; code: "not_found"; missingFrom: "mirror"; traceID: null }
  | { ok: false; code: "not_found"; missingFrom: "platform"; traceID: string | null }
  | { ok: false; code: "platform_error"; kind: PlatformErrorKind; traceID: string | null };

/**
 * Reads the operation from the platform (GET by id, recorded with the staff user) and applies it to the
 * mirror as a manual refresh; the read's traceID goes into the status history. Only operations already
 * in the mirror are read, at most REFRESHES_PER_MINUTE per user: refusals cost no platform call.
 */
export async function refreshOperation(
  id: string,
  actorUserId: string,
  platform: Pick<PlatformClient, "getOperation"> = getPlatformClient(),
): Promise<RefreshResult> {
  if (!refreshRateLimit.take(actorUserId)) return { ok: false, code: "rate_limited" };
  const mirrored = await getDb().operation.findUnique({ where: { id }, select: { id: true } });
  if (!mirrored) return { ok: false, code: "not_found", missingFrom: "mirror", traceID: null };
  try {
    const readAt = new Date();
    const { operation, traceID } = await platform.getOperation(id, { actorUserId });
    if (!operation) {
      return { ok: false, code: "not_found", missingFrom: "platform", traceID };
    }
    const applied = await applySnapshot(operation, "manualRefresh", {
      sourceRef: traceID,
      receivedAt: readAt,
    });
    return { ok: true, outcome: applied.outcome, status: applied.status, traceID };
  } catch (error) {
    if (!isPlatformError(error)) throw error;
    getLog().warn({ operationId: id, traceID: error.traceID, err: error }, "manual refresh failed");
    return { ok: false, code: "platform_error", kind: error.kind, traceID: error.traceID };
  }
}
