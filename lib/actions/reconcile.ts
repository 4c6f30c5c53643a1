"use server";
import { z } from "zod";
import { authorizedAction } from "@/lib/auth/action";
import { lookUpGivenUpIntent } from "@/lib/operations/mirror/given-up-intents";
import { getPlatformClient } from "@/lib/platform/from-env";
import { decideDrift } from "@/lib/reconcile/drift-actions";
import { queueReconciliationNow } from "@/lib/reconcile/run-now";
import { safeText } from "@/lib/validation/text";

const driftInput = z
  .object({
    id: z.uuid({ error: "reconciliation.decision.notAnId" }).transform((s) => s.toLowerCase()),
    decision: z.enum(["acknowledge", "resolve"], { error: "reconciliation.decision.chooseDecision" }),
    note: z
      .string({ error: "reconciliation.decision.writeNote" })
      .trim()
      .min(3, "reconciliation.decision.noteTooShort")
      .max(2000, "reconciliation.decision.noteTooLong")
      .superRefine(safeText("note")),
    // A balance difference's amount as the page showed it: the decision is refused if it has changed since.
    amount: z
      .string({ error: "reconciliation.decision.notAnAmount" })
      .regex(/^-?\d{1,20}(\.\d{1,4})?$/, "reconciliation.decision.notAnAmount")
      .optional(),
  })
  .strict();

const runInput = z
  .object({ kind: z.enum(["incremental", "full"], { error: "reconciliation.runNow.chooseKind" }) })
  .strict();

const lookUpInput = z
  .object({
    idTransactionMerchant: z
      .string({ error: "reconciliation.unanswered.notAnId" })
      .min(1, "reconciliation.unanswered.notAnId")
      .max(128, "reconciliation.unanswered.notAnId")
      .superRefine(safeText("idTransactionMerchant")),
  })
  .strict();

/** Looks up a given-up creation on the platform by its idTransactionMerchant (reconciliation.run); audited. */
export const lookUpGivenUpAction = authorizedAction(
  "reconciliation.run",
  lookUpInput,
  async (input, { actor }) => lookUpGivenUpIntent(getPlatformClient(), actor, input.idTransactionMerchant),
);

/** Acknowledges or resolves a drift item with a note (reconciliation.resolve); audited. */
export const decideDriftAction = authorizedAction(
  "reconciliation.resolve",
  driftInput,
  async (input, { actor }) =>
    decideDrift(actor, input.id, input.decision, input.note, { amount: input.amount }),
);

/** Queues an incremental or full reconciliation now (reconciliation.run); audited. */
export const runReconciliationNowAction = authorizedAction(
  "reconciliation.run",
  runInput,
  async (input, { actor }) => queueReconciliationNow(actor, input.kind),
);
