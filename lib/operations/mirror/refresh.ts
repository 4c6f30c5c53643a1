import "server-only";
import type { ApplyOutcome } from "@/lib/operations/mirror/apply-snapshot";
import { applySnapshot } from "@/lib/operations/mirror/apply-snapshot";
import type { OperationStatus } from "@/lib/generated/prisma/enums";
import type { PlatformClient } from "@/lib/platform/client";
import { isPlatformError } from "@/lib/platform/errors";
import { getPlatformClient } from "@/lib/platform/from-env";
import { getLog } from "@/lib/log";

export type RefreshResult =
  | { ok: true; outcome: ApplyOutcome; status: OperationStatus; traceID: string | null }
  | {
      ok: false;
      code: "not_found" | "platform_error";
      message: string;
      traceID: string | null;
    };

const kindMessages: Record<string, string> = {
  timeout: "The platform did not answer in time. Try again in a moment.",
  transport: "The platform could not be reached. Try again in a moment.",
  auth: "The platform refused our credentials. Tell an admin.",
  protocol: "The platform sent an answer we could not read.",
  business: "The platform refused the read.",
};

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
      return { ok: false, code: "not_found", message: "The platform does not know this operation.", traceID };
    }
    const applied = await applySnapshot(operation, "manualRefresh", {
      sourceRef: traceID,
      receivedAt: readAt,
    });
    return { ok: true, outcome: applied.outcome, status: applied.status, traceID };
  } catch (error) {
    if (!isPlatformError(error)) throw error;
    getLog().warn({ operationId: id, traceID: error.traceID, err: error }, "manual refresh failed");
    return {
      ok: false,
      code: "platform_error",
      message: kindMessages[error.kind] ?? "The platform read failed.",
      traceID: error.traceID,
    };
  }
}
