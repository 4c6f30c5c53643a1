import "server-only";
import { getDb } from "@/lib/db";
import { describeDatabaseProblem } from "@/lib/db-check";
import { getEnv } from "@/lib/env";

// Thresholds beyond which a part is reported failing.
const WEBHOOK_LAG_LIMIT_MS = 5 * 60_000;
const RECONCILIATION_AGE_LIMIT_MS = 2 * 60 * 60_000;

export type HealthPart = { ok: boolean; detail: string };
export type Health = { ok: boolean; failing: string[]; parts: Record<string, HealthPart> };

const age = (from: Date, now: Date) => `${Math.round((now.getTime() - from.getTime()) / 1000)} s ago`;

/** Database, platform reachability, webhook queue lag and the last complete reconciliation. */
export async function checkHealth(now = new Date()): Promise<Health> {
  const databaseProblem = await describeDatabaseProblem(getEnv().DATABASE_URL, 2000);
  const parts: Record<string, HealthPart> = {
    database: { ok: !databaseProblem, detail: databaseProblem ?? "answers" },
  };
  if (!databaseProblem) {
    const db = getDb();
    const [lastOk, lastCall, oldestWaiting, lastRun] = await Promise.all([
      db.apiCall.findFirst({
        where: { envelopeStatus: { in: ["Success", "success"] } },
        orderBy: { startedAt: "desc" },
        select: { startedAt: true },
      }),
      db.apiCall.findFirst({
        orderBy: { startedAt: "desc" },
        select: { startedAt: true, httpStatus: true, error: true },
      }),
      db.webhookDelivery.findFirst({
        where: { outcome: "received" },
        orderBy: { id: "asc" },
        select: { receivedAt: true },
      }),
      db.reconciliationRun.findFirst({
        where: { status: "completed" },
        orderBy: { finishedAt: "desc" },
        select: { finishedAt: true },
      }),
    ]);
    const lastFailed =
      lastCall &&
      (!lastOk || lastCall.startedAt > lastOk.startedAt) &&
      (lastCall.error || (lastCall.httpStatus ?? 0) >= 500);
    parts.platform = {
      ok: !lastFailed,
      detail: lastOk ? `last successful call ${age(lastOk.startedAt, now)}` : "no successful call yet",
    };
    const lag = oldestWaiting ? now.getTime() - oldestWaiting.receivedAt.getTime() : 0;
    parts.webhookQueue = {
      ok: lag < WEBHOOK_LAG_LIMIT_MS,
      detail: oldestWaiting ? `oldest unprocessed webhook ${age(oldestWaiting.receivedAt, now)}` : "empty",
    };
    const runAge = lastRun?.finishedAt ? now.getTime() - lastRun.finishedAt.getTime() : Infinity;
    parts.reconciliation = {
      ok: runAge < RECONCILIATION_AGE_LIMIT_MS,
      detail: lastRun?.finishedAt
        ? `last complete run ${age(lastRun.finishedAt, now)}`
        : "no complete run yet",
    };
  }
  const failing = Object.entries(parts)
    .filter(([, p]) => !p.ok)
    .map(([name]) => name);
  return { ok: failing.length === 0, failing, parts };
}
