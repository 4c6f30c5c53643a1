import "server-only";
import { withPoolTransaction } from "@/lib/db";
import type { OperationStatus, SnapshotSource } from "@/lib/generated/prisma/enums";
import type { Operation } from "@/lib/platform/schemas";
import { incomingSnapshot, judgeSnapshot, type ApplyOutcome } from "@/lib/operations/mirror/apply-snapshot";
import { MIRRORED_FIELDS, type MirroredField } from "@/lib/operations/mirror/mirror-fields";
import { readMirrorStates, type MirrorState } from "@/lib/operations/mirror/mirror-state";
import { snapshotToRow } from "@/lib/operations/mirror/snapshot-row";
import { FINAL_STATUSES_SQL } from "@/lib/operations/status";

export type BatchItemResult = {
  op: Operation;
  outcome: ApplyOutcome;
  before: MirrorState | null;
  /** Mirrored fields whose value in the snapshot differs from the mirror's (before this batch). */
  differences: MirroredField[];
};

// Every column of a mirrored row: the id, the mirrored fields, the snapshot and Paydesk's own bookkeeping.
const COLUMNS = [
  "id",
  ...MIRRORED_FIELDS,
  "raw",
  "lastSource",
  "snapshotReceivedAt",
  "firstSeenAt",
  "mirroredAt",
  "stuckFlaggedAt",
] as const;
const KEPT_ON_UPDATE = new Set(["id", "firstSeenAt", "stuckFlaggedAt"]);
const quoted = COLUMNS.map((c) => `"${c}"`).join(", ");
const updates = COLUMNS.filter((c) => !KEPT_ON_UPDATE.has(c))
  .map((c) => `"${c}" = EXCLUDED."${c}"`)
  .concat(
    `"stuckFlaggedAt" = CASE WHEN EXCLUDED.status IN (${FINAL_STATUSES_SQL}) THEN NULL ELSE "Operation"."stuckFlaggedAt" END`,
  )
  .join(", ");
const UPSERT = `INSERT INTO "Operation" (${quoted})
  SELECT ${quoted} FROM json_populate_recordset(NULL::"Operation", $1::json)
  ON CONFLICT (id) DO UPDATE SET ${updates}`;

const INSERT_HISTORY = `INSERT INTO "OperationStatusChange"
    ("operationId", "fromStatus", "toStatus", source, "sourceRef", "platformDateUpdated")
  SELECT "operationId", "fromStatus", "toStatus", source, "sourceRef", "platformDateUpdated"
  FROM json_populate_recordset(NULL::"OperationStatusChange", $1::json)`;

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
      await tx.query(
        `SELECT count(pg_advisory_xact_lock(hashtextextended(id, 7370))) FROM (SELECT unnest($1::text[]) AS id ORDER BY 1) AS sorted`,
        [ids],
      );
      const current = await readMirrorStates(tx, ids);
      const now = new Date().toISOString();
      const results: BatchItemResult[] = [];
      const writes: object[] = [];
      const written: string[] = [];
      const history: {
        operationId: string;
        fromStatus: OperationStatus | null;
        toStatus: OperationStatus;
        source: SnapshotSource;
        sourceRef: string | null;
        platformDateUpdated: Date | null;
      }[] = [];
      for (const op of unique) {
        const before = current.get(op.id) ?? null;
        const { outcome, differences } = judgeSnapshot(before, incomingSnapshot(op, source, receivedAt));
        results.push({ op, outcome, before, differences });
        if (outcome !== "inserted" && outcome !== "updated") continue;
        written.push(op.id);
        writes.push({
          ...snapshotToRow(op, source, null, before?.kept ?? null),
          snapshotReceivedAt: receivedAt,
          firstSeenAt: now,
          mirroredAt: now,
          stuckFlaggedAt: null,
        });
        if (!before || before.status !== op.status) {
          history.push({
            operationId: op.id,
            fromStatus: before?.status ?? null,
            toStatus: op.status,
            source,
            sourceRef,
            platformDateUpdated: op.dateUpdated,
          });
        }
      }
      if (writes.length === 0) return results;
      // The ledger is derived once, after both writes, rather than by each statement's trigger
      // (migration 20261124005334_ledger_derivation_deferred_for_batches).
      await tx.query(`SET LOCAL paydesk.ledger_derivation = 'deferred'`);
      await tx.query(UPSERT, [JSON.stringify(writes)]);
      if (history.length > 0) await tx.query(INSERT_HISTORY, [JSON.stringify(history)]);
      await tx.query(`SELECT ledger_derive_postings($1::uuid[])`, [written]);
      return results;
    },
    { statementTimeoutMs: 60_000 },
  );
}
