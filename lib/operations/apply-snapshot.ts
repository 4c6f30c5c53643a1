import "server-only";
import { getDb } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { OperationStatus, SnapshotSource } from "@/lib/generated/prisma/enums";
import type { Operation } from "@/lib/platform/schemas";
import { snapshotToRow } from "@/lib/operations/snapshot-row";
import { isFinal, statusRank } from "@/lib/operations/status";

export type ApplyOutcome =
  /** first time the mirror sees this operation */
  | "inserted"
  /** newer information stored */
  | "updated"
  /** same state as the mirror already has */
  | "unchanged"
  /** older than what the mirror has: ignored */
  | "stale"
  /** would move a final status to another status: refused, mirror unchanged */
  | "conflict";

export type ApplyResult = {
  outcome: ApplyOutcome;
  previousStatus: OperationStatus | null;
  status: OperationStatus;
};

export type ApplyOptions = {
  /** traceID of the read, or the webhook delivery id, recorded in the status history. */
  sourceRef?: string | null;
  /** For pay-outs, whose reads carry no method: the method of our own creation request. */
  paymentMethod?: string | null;
  tx?: Prisma.TransactionClient;
};

type Current = { status: OperationStatus; dateUpdated: Date | null };

/** Decides what a snapshot does to the mirrored state; the heart of "never regress". */
export function judgeSnapshot(current: Current, incoming: Current): ApplyOutcome {
  if (isFinal(current.status) && incoming.status !== current.status) return "conflict";
  const a = current.dateUpdated?.getTime() ?? -Infinity;
  const b = incoming.dateUpdated?.getTime() ?? -Infinity;
  if (b < a) return "stale";
  if (b === a) {
    if (incoming.status === current.status) return "unchanged";
    return statusRank(incoming.status) > statusRank(current.status) ? "updated" : "stale";
  }
  return "updated";
}

/**
 * Applies an operation snapshot from any source inside one transaction: inserts or updates the mirror,
 * never moves a final status back, never lets an older snapshot overwrite a newer one, and records each
 * status change with its source. Concurrent snapshots of one operation are serialised by a row lock.
 */
export async function applySnapshot(
  op: Operation,
  source: SnapshotSource,
  options: ApplyOptions = {},
): Promise<ApplyResult> {
  const run = async (tx: Prisma.TransactionClient): Promise<ApplyResult> => {
    // Serialises concurrent snapshots of the same operation, including the very first insert.
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${op.id}, 7370))`;
    const current = await tx.operation.findUnique({
      where: { id: op.id },
      select: { status: true, dateUpdated: true, paymentMethod: true },
    });
    const row = snapshotToRow(op, source, options.paymentMethod ?? current?.paymentMethod ?? null);
    const change = {
      operationId: op.id,
      toStatus: op.status,
      source,
      sourceRef: options.sourceRef ?? null,
      platformDateUpdated: op.dateUpdated,
    };
    if (!current) {
      await tx.operation.create({ data: row });
      await tx.operationStatusChange.create({ data: { ...change, fromStatus: null } });
      return { outcome: "inserted", previousStatus: null, status: op.status };
    }
    const outcome = judgeSnapshot(current, op);
    if (outcome !== "updated") return { outcome, previousStatus: current.status, status: current.status };
    await tx.operation.update({
      where: { id: op.id },
      data: { ...row, mirroredAt: new Date(), ...(isFinal(op.status) ? { stuckFlaggedAt: null } : {}) },
    });
    if (current.status !== op.status) {
      await tx.operationStatusChange.create({ data: { ...change, fromStatus: current.status } });
    }
    return { outcome, previousStatus: current.status, status: op.status };
  };
  return options.tx ? run(options.tx) : getDb().$transaction(run);
}
