import type { OperationStatus } from "@/lib/generated/prisma/enums";

/**
 * The final statuses of an operation (spec, transitions table): once mirrored, a final status never
 * changes. The one definition; SQL writes it as FINAL_STATUSES_SQL. (The ledger's triggers in migration
 * 20261123004903_ledger spell it out once more in SQL; tests/integration/ledger/ledger.test.ts holds
 * them to lib/ledger/rules.ts, which asks isFinal.)
 */
export const finalStatuses: readonly OperationStatus[] = ["success", "failed"];

export function isFinal(status: string): boolean {
  return (finalStatuses as readonly string[]).includes(status);
}

/** finalStatuses as an SQL list of literals, for `status IN (...)` in raw queries: `'success', 'failed'`. */
export const FINAL_STATUSES_SQL = finalStatuses.map((s) => `'${s}'`).join(", ");

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
