import "server-only";
import { automaticActor } from "@/lib/audit/log";
import { getDb } from "@/lib/db";
import { issueStatement, markSupersededStatements } from "@/lib/statements/issue";
import { settleComparisons } from "@/lib/ledger/proof";
import { getSettings } from "@/lib/settings/settings";
import { resolvePeriod } from "@/lib/statements/periods";

/** The automatic monthly statement's zone (the platform's own day boundaries are not published). */
const MONTHLY_ZONE = "UTC";

/**
 * Issues last month's statement once a complete reconciliation that started after the month ended
 * covers it, unless a statement of that month stands already.
 */
export async function issueLastMonthIfCovered(now = new Date()): Promise<string | null> {
  const resolved = resolvePeriod({ period: "last-month", tz: MONTHLY_ZONE }, now);
  if (!resolved.ok) return null;
  const { period } = resolved;
  const db = getDb();
  const [standing, covering] = await Promise.all([
    db.issuedStatement.findFirst({
      where: { periodFrom: period.from, periodTo: period.to, timeZone: period.tz, supersededAt: null },
      select: { id: true },
    }),
    db.reconciliationRun.findFirst({
      where: { status: "completed", startedAt: { gte: period.to } },
      select: { id: true },
    }),
  ]);
  if (standing || !covering) return null;
  const issued = await issueStatement(period, automaticActor, { automatic: true });
  return issued.id;
}

/** The ledger's periodic work (pg-boss job `ledger-upkeep`). */
export async function runLedgerUpkeep(now = new Date()) {
  const movements = await settleComparisons((await getSettings()).balanceDifferenceMinutes, now);
  const superseded = await markSupersededStatements(now);
  const monthly = await issueLastMonthIfCovered(now);
  return { movements, superseded, monthly };
}
