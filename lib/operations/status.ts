import type { OperationStatus } from "@/lib/generated/prisma/enums";

export const finalStatuses: readonly OperationStatus[] = ["success", "failed"];

export function isFinal(status: OperationStatus): boolean {
  return finalStatuses.includes(status);
}

// Position in the lifecycle of the spec's transitions table; used only when two snapshots carry the
// same dateUpdated and so cannot be ordered by time.
const rank: Record<OperationStatus, number> = {
  precreated: 0,
  created: 1,
  booking: 2,
  pending_retry: 2,
  in_progress: 3,
  success: 4,
  failed: 4,
};

export function statusRank(status: OperationStatus): number {
  return rank[status];
}
