"use server";
import { z } from "zod";
import { actorFor } from "@/lib/audit/actor";
import { audit } from "@/lib/audit/log";
import { authorizedAction } from "@/lib/auth/action";
import { getDb } from "@/lib/db";
import { enqueueJob } from "@/lib/jobs/enqueue";
import { getLog } from "@/lib/log";
import { decideDrift } from "@/lib/reconcile/drift-actions";
import { safeText } from "@/lib/validation/text";

const driftInput = z
  .object({
    id: z.uuid({ error: "Not a drift item id." }).transform((s) => s.toLowerCase()),
    decision: z.enum(["acknowledge", "resolve"], { error: "Choose acknowledge or resolve." }),
    note: z
      .string({ error: "Write a note." })
      .trim()
      .min(3, "Write a note of at least 3 characters: what was checked or done.")
      .max(2000, "At most 2000 characters.")
      .superRefine(safeText("note")),
  })
  .strict();

const runInput = z
  .object({ kind: z.enum(["incremental", "full"], { error: "Choose incremental or full." }) })
  .strict();

const decide = authorizedAction("reconciliation.resolve", driftInput, async (input, user) =>
  decideDrift(await actorFor(user), input.id, input.decision, input.note),
);

const runNow = authorizedAction("reconciliation.run", runInput, async (input, user) => {
  const actor = await actorFor(user);
  let jobId: string | null;
  try {
    jobId = await enqueueJob(input.kind === "full" ? "reconcileFull" : "reconcileIncremental");
  } catch (error) {
    getLog().error({ err: error }, "could not queue a reconciliation");
    return { ok: false as const, code: "unavailable" as const, message: "The job queue is not reachable." };
  }
  await getDb().$transaction((tx) =>
    audit(tx, actor, {
      action: "reconciliation.runNow",
      targetType: "reconciliation",
      targetId: input.kind,
      after: { kind: input.kind, jobId, alreadyQueued: jobId === null },
    }),
  );
  return { ok: true as const, kind: input.kind, queued: jobId !== null };
});

/** Acknowledges or resolves a drift item with a note (reconciliation.resolve); audited. */
export async function decideDriftAction(input: unknown) {
  return decide(input);
}

/** Queues an incremental or full reconciliation now (reconciliation.run); audited. */
export async function runReconciliationNowAction(input: unknown) {
  return runNow(input);
}
