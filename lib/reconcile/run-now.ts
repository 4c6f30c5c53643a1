import "server-only";
import { audit, type Actor } from "@/lib/audit/log";
import { getDb } from "@/lib/db";
import { translatorFor } from "@/lib/auth/translator";
import { createRateLimit } from "@/lib/http/rate-limit";
import { enqueueJob } from "@/lib/queue/enqueue";
import { getLog } from "@/lib/log";

export const RUNS_NOW_PER_MINUTE = 10;

/** Per user, per process (lib/http/rate-limit.ts): each press is a queue call and an audit entry. */
export const runNowRateLimit = createRateLimit({ limit: RUNS_NOW_PER_MINUTE, windowMs: 60_000 });

export type RunNowResult =
  | { ok: true; kind: "incremental" | "full"; queued: boolean }
  | { ok: false; code: "unavailable" | "rate_limited"; message: string };

/**
 * Queues a reconciliation for the worker now, audited. One already waiting in the queue is not doubled
 * (a pg-boss stately queue: lib/queue/queues.ts): `queued` is false then. At most RUNS_NOW_PER_MINUTE
 * presses a minute per user are taken: the rest are refused without queueing or auditing.
 */
export async function queueReconciliationNow(
  actor: Actor,
  kind: "incremental" | "full",
): Promise<RunNowResult> {
  if (!runNowRateLimit.take(actor.id ?? actor.email ?? "")) {
    const t = await translatorFor("reconciliation");
    return {
      ok: false,
      code: "rate_limited",
      message: t("runNow.tooMany", { limit: RUNS_NOW_PER_MINUTE }),
    };
  }
  let jobId: string | null;
  try {
    jobId = await enqueueJob(kind === "full" ? "reconcileFull" : "reconcileIncremental");
  } catch (error) {
    getLog().error({ err: error }, "could not queue a reconciliation");
    const t = await translatorFor("reconciliation");
    return { ok: false, code: "unavailable", message: t("runNow.queueUnreachable") };
  }
  await getDb().$transaction((tx) =>
    audit(tx, actor, {
      action: "reconciliation.runNow",
      targetType: "reconciliation",
      targetId: kind,
      after: { kind, jobId, alreadyQueued: jobId === null },
    }),
  );
  return { ok: true, kind, queued: jobId !== null };
}
