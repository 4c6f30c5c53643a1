import "server-only";
import { audit, type Actor } from "@/lib/audit/log";
import { getDb } from "@/lib/db";
import { translatorFor } from "@/lib/auth/translator";
import { enqueueJob } from "@/lib/queue/enqueue";
import { getLog } from "@/lib/log";

export type RunNowResult =
  | { ok: true; kind: "incremental" | "full"; queued: boolean }
  | { ok: false; code: "unavailable"; message: string };

/**
 * Queues a reconciliation for the worker now, audited. One already waiting in the queue is not doubled
 * (a pg-boss stately queue: lib/queue/queues.ts): `queued` is false then.
 */
export async function queueReconciliationNow(
  actor: Actor,
  kind: "incremental" | "full",
): Promise<RunNowResult> {
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
