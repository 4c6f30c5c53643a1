import "server-only";
import type { ApplyOutcome } from "@/lib/operations/mirror/apply-snapshot";
import { applySnapshot } from "@/lib/operations/mirror/apply-snapshot";
import type { OperationStatus } from "@/lib/generated/prisma/enums";
import type { PlatformClient } from "@/lib/platform/client";
import { isPlatformError, type PlatformErrorKind } from "@/lib/platform/errors";
import { getPlatformClient } from "@/lib/platform/from-env";
import { getLog } from "@/lib/log";

/** A failure is worded for the reader by the action (operations.detail.refreshFailed.<kind>). */
export type RefreshResult =
  | { ok: true; outcome: ApplyOutcome; status: OperationStatus; traceID: string | null }
  | { ok: false; code: "not_found"; traceID: string | null }
  | { ok: false; code: "platform_error"; kind: PlatformErrorKind; traceID: string | null };

/**
 * Reads the operation from the platform (GET by id, recorded with the staff user) and applies it to the
 * mirror as a manual refresh; the read's traceID goes into the status history.
 */
export async function refreshOperation(
  id: string,
  actorUserId: string,
  platform: Pick<PlatformClient, "getOperation"> = getPlatformClient(),
): Promise<RefreshResult> {
  try {
    const readAt = new Date();
    const { operation, traceID } = await platform.getOperation(id, { actorUserId });
    if (!operation) {
      return { ok: false, code: "not_found", traceID };
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
