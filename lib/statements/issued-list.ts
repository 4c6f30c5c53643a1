import "server-only";
import { getDb } from "@/lib/db";
import type { StatementChanges } from "@/lib/statements/issue";

export type IssuedRow = {
  id: string;
  from: string;
  to: string;
  tz: string;
  issuedAt: string;
  issuedBy: string;
  automatic: boolean;
  contentHash: string;
  closing: string | null;
  supersededAt: string | null;
  /** What superseded it: lines of the period and opening or closing balances that changed since. */
  changes: StatementChanges | null;
};

/** Issued statements, newest first, with what superseded them. */
export async function issuedStatements(take = 50): Promise<IssuedRow[]> {
  const rows = await getDb().issuedStatement.findMany({
    orderBy: { issuedAt: "desc" },
    take,
    select: {
      id: true,
      periodFrom: true,
      periodTo: true,
      timeZone: true,
      issuedAt: true,
      issuedByEmail: true,
      automatic: true,
      contentHash: true,
      totals: true,
      supersededAt: true,
      changes: true,
    },
  });
  return rows.map((r) => ({
    id: r.id,
    from: r.periodFrom.toISOString(),
    to: r.periodTo.toISOString(),
    tz: r.timeZone,
    issuedAt: r.issuedAt.toISOString(),
    issuedBy: r.issuedByEmail ?? "automatic",
    automatic: r.automatic,
    contentHash: r.contentHash,
    closing: (r.totals as { closing?: { available?: string } }).closing?.available ?? null,
    supersededAt: r.supersededAt?.toISOString() ?? null,
    changes: (r.changes as IssuedRow["changes"]) ?? null,
  }));
}
