import "server-only";
import { getBalanceCached } from "@/lib/balance/cached";
import { getDb } from "@/lib/db";
import { runLedgerUpkeep } from "@/lib/statements/upkeep";
import { getLog } from "@/lib/log";
import { resolvePendingIntent } from "@/lib/operations/mirror/create-once";
import { settleGivenUpFromMirror } from "@/lib/operations/mirror/given-up-intents";
import { flagStuckOperations } from "@/lib/operations/mirror/stuck";
import type { PlatformClient } from "@/lib/platform/client";
import { FULL_RUN_WAITS_MS, runReconciliation } from "@/lib/reconcile/run";
import { yieldToWebhooks } from "@/lib/reconcile/yield";
import { pruneExpiredRecords } from "@/lib/retention/prune";
import { runSubmissionJob } from "@/lib/payouts/hand-off";
import { submitLostApprovals, syncSubmittingPayouts } from "@/lib/payouts/submit";
import { getSettings } from "@/lib/settings/settings";
import type { JobName, TaskName } from "@/lib/queue/queues";

// An intent whose answer was lost is checked again once it is this old (the request may still be in flight).
const PENDING_INTENT_AGE_MS = 30_000;

/** `stopping` is aborted when the worker stops: work that waits on something ends its wait. */
export function jobHandlers(
  platform: PlatformClient,
  stopping?: AbortSignal,
): Record<JobName, () => Promise<unknown>> {
  return {
    reconcileIncremental: () =>
      runReconciliation({ kind: "incremental", platform, yieldTo: yieldToWebhooks, stopping }),
    // A full run is queued on purpose (nightly, or "Run full now"): it waits for an incremental run under
    // way rather than being skipped; an incremental one steps aside (the next, 5 minutes on, repeats it).
    reconcileFull: () =>
      runReconciliation({
        kind: "full",
        platform,
        yieldTo: yieldToWebhooks,
        stopping,
        waitForRunnerMs: FULL_RUN_WAITS_MS,
      }),
    balanceSnapshot: () => getBalanceCached(platform),
    ledgerUpkeep: () => runLedgerUpkeep(),
    stuckOperations: async () =>
      flagStuckOperations((await getSettings()).stuckOperationMinutes, new Date(), {
        yieldTo: yieldToWebhooks,
      }),
    submittingPayouts: async () => ({
      lostApprovals: await submitLostApprovals(platform),
      settled: await syncSubmittingPayouts(platform),
    }),
    retention: () => pruneExpiredRecords(),
    pendingIntents: async () => {
      // Given up on, then mirrored by a webhook or a reconciliation run: settled without a call. A failure
      // here is logged; the pending intents below are still checked.
      await settleGivenUpFromMirror().catch((err: unknown) =>
        getLog().error({ err }, "given-up creation intents could not be settled from the mirror"),
      );
      const pending = await getDb().creationIntent.findMany({
        where: {
          state: "pending",
          gaveUpAt: null,
          updatedAt: { lt: new Date(Date.now() - PENDING_INTENT_AGE_MS) },
        },
        select: { idTransactionMerchant: true },
        take: 100,
      });
      // One intent that fails (a bug, a database error) is logged and left for the next run; the intents
      // after it in the batch (pay-ins, payment links and pay-outs alike) are still checked.
      for (const { idTransactionMerchant } of pending) {
        try {
          const outcome = await resolvePendingIntent(platform, idTransactionMerchant);
          getLog().info(
            { idTransactionMerchant, outcome: outcome.status },
            "pending creation intent checked",
          );
        } catch (err) {
          getLog().error({ err, idTransactionMerchant }, "pending creation intent could not be checked");
        }
      }
      return pending.length;
    },
  };
}

/** Handlers of the on-demand jobs, given the job's payload (validated by each handler). */
export function taskHandlers(
  platform: PlatformClient,
): Record<TaskName, (data: unknown) => Promise<unknown>> {
  return {
    submitPayout: (data) => runSubmissionJob(data, platform),
  };
}
