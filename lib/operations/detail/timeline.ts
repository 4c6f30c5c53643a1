import type { OperationStatus, SnapshotSource } from "@/lib/generated/prisma/enums";
import { isFinal } from "@/lib/operations/status";

export type StatusChangeInput = {
  fromStatus: OperationStatus | null;
  toStatus: OperationStatus;
  source: SnapshotSource;
  sourceRef: string | null;
  platformDateUpdated: Date | null;
  recordedAt: Date;
};

export type TimelineEntry = {
  status: OperationStatus;
  fromStatus: OperationStatus | null;
  source: SnapshotSource;
  sourceRef: string | null;
  /** When the platform says the status was reached (its dateUpdated), else when we recorded it. */
  at: string;
  recordedAt: string;
  /** Milliseconds spent in this status until the next one; for the current, non-final status until now. */
  durationMs: number | null;
  /** True for the last entry when its status is not final: the duration is still running. */
  ongoing: boolean;
};

/**
 * The status history in order, with the time spent in each status. A status starts at the platform's
 * dateUpdated that carried it (the first one at dateAdded when that is missing); a final status has no
 * duration.
 */
export function buildTimeline(
  dateAdded: Date,
  changes: readonly StatusChangeInput[],
  now: Date = new Date(),
): TimelineEntry[] {
  const ordered = [...changes].sort((a, b) => a.recordedAt.getTime() - b.recordedAt.getTime());
  const startOf = (c: StatusChangeInput, index: number) =>
    index === 0 && c.fromStatus === null
      ? (c.platformDateUpdated ?? dateAdded)
      : (c.platformDateUpdated ?? c.recordedAt);
  return ordered.map((change, i) => {
    const start = startOf(change, i);
    const next = ordered[i + 1];
    const last = next === undefined;
    const ongoing = last && !isFinal(change.toStatus);
    const end = next ? startOf(next, i + 1) : ongoing ? now : null;
    return {
      status: change.toStatus,
      fromStatus: change.fromStatus,
      source: change.source,
      sourceRef: change.sourceRef,
      at: start.toISOString(),
      recordedAt: change.recordedAt.toISOString(),
      durationMs: end ? Math.max(0, end.getTime() - start.getTime()) : null,
      ongoing,
    };
  });
}
