import "server-only";
import { z } from "zod";
import type { Actor } from "@/lib/audit/log";
import { enqueueTask } from "@/lib/queue/enqueue";
import { getLog } from "@/lib/log";
import { submitPayout, type SubmitPlatform, type SubmitResult } from "./submit";

/**
 * Approving never waits for the platform: the decision is committed, then the submission is handed to
 * the worker as a job (a pg-boss queue, one waiting job per request) and the page follows the status.
 * The worker runs submitPayout, which sends each request at most once whatever the number of jobs,
 * redeliveries or sweeps; a job that never arrives (queue unreachable, lost) is made up for by the
 * worker's sweep of approved requests (submitLostApprovals).
 */
export const submissionJobSchema = z.object({
  payoutRequestId: z.uuid(),
  /** Who approved (or created an auto-approved request): the submission is audited in their name. */
  actor: z.object({
    id: z.uuid().nullable(),
    email: z.string().max(320).nullable(),
    ip: z.string().max(64).nullable().optional(),
  }),
});
export type SubmissionJob = z.infer<typeof submissionJobSchema>;

/**
 * Queues the submission of a request just approved (call it after the approving transaction committed).
 * True when queued; false when the queue could not be reached: the request stays approved and the sweep
 * sends it within a few minutes.
 */
export async function handOffSubmission(payoutRequestId: string, actor: Actor): Promise<boolean> {
  const job: SubmissionJob = {
    payoutRequestId,
    actor: { id: actor.id, email: actor.email, ip: actor.ip ?? null },
  };
  try {
    await enqueueTask("submitPayout", job, { singletonKey: payoutRequestId });
    return true;
  } catch (error) {
    getLog().error(
      { err: error, payoutRequestId },
      "could not queue the pay-out's submission; the sweep sends it",
    );
    return false;
  }
}

/** The worker's handler for a submission job; a payload that is not one is refused (the job fails). */
export async function runSubmissionJob(data: unknown, platform: SubmitPlatform): Promise<SubmitResult> {
  const job = submissionJobSchema.parse(data);
  return submitPayout(job.payoutRequestId, job.actor, platform);
}
