import "server-only";
import { withPoolTransaction } from "@/lib/db";
import type { SnapshotSource } from "@/lib/generated/prisma/enums";
import type { Operation } from "@/lib/platform/schemas";
import { incomingSnapshot, judgeSnapshot, type ApplyOutcome } from "@/lib/operations/mirror/apply-snapshot";
import type { MirroredField } from "@/lib/operations/mirror/mirror-fields";
import { lockAndReadMirrorStates, type MirrorState } from "@/lib/operations/mirror/mirror-state";
import {
  mirrorRow,
  type MirrorRowJson,
  statusChangeOf,
  writeMirrorRows,
  writeStatusChanges,
  type StatusChangeRow,
} from "@/lib/operations/mirror/write-rows";

export type BatchItemResult = {
  op: Operation;
  outcome: ApplyOutcome;
  before: MirrorState | null;
  /** Mirrored fields whose value in the snapshot differs from the mirror's (before this batch). */
  differences: MirroredField[];
};

/**
 * The batch form of applySnapshot for reconciliation pages: the same rules (judgeSnapshot), the same
 * per-operation locks, one transaction and three statements per batch instead of several per operation.
 * `receivedAt` is when the page was requested.
 */
export async function applySnapshotsBatch(
  ops: Operation[],
  source: SnapshotSource,
  sourceRef: string | null,
  receivedAt: Date = new Date(),
): Promise<BatchItemResult[]> {
  const unique = [...new Map(ops.map((op) => [op.id, op])).values()];
  if (unique.length === 0) return [];
  const ids = unique.map((op) => op.id).sort();
  return withPoolTransaction(
    async (tx) => {
      const current = await lockAndReadMirrorStates(tx, ids);
      const now = new Date().toISOString();
      const results: BatchItemResult[] = [];
      const writes: MirrorRowJson[] = [];
      const history: StatusChangeRow[] = [];
      for (const op of unique) {
        const before = current.get(op.id) ?? null;
        const { outcome, differences } = judgeSnapshot(before, incomingSnapshot(op, source, receivedAt));
        results.push({ op, outcome, before, differences });
        if (outcome !== "inserted" && outcome !== "updated") continue;
        writes.push(
          mirrorRow(op, source, { paymentMethod: null, kept: before?.kept ?? null, receivedAt, now }),
        );
        const change = statusChangeOf(op, before?.status ?? null, source, sourceRef);
        if (change) history.push(change);
      }
      if (writes.length === 0) return results;
      await writeMirrorRows(tx, writes, current);
      await writeStatusChanges(tx, history);
      // The ledger is derived once, after both writes, rather than by each statement's trigger
      // (migration 20261124005334_ledger_derivation_deferred_for_batches; the setting below). Operations
      // the mirror did not have have no postings: the derivation does not look for theirs (migration
      // 20261125002333_ledger_derivation_of_new_operations).
      const known: string[] = [];
      const added: string[] = [];
      for (const { id } of writes) (current.has(id) ? known : added).push(id);
      await tx.query(`SELECT ledger_derive_postings($1::uuid[], $2::uuid[])`, [known, added]);
      return results;
    },
    { statementTimeoutMs: 60_000, settings: { "paydesk.ledger_derivation": "deferred" } },
  );
}
