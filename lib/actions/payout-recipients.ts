"use server";
import { stepUpAction } from "@/lib/auth/action";
import { revealRecipientNumber } from "@/lib/recipients/reveal";
import { readPayoutRecipientNumber } from "@/lib/payouts/queries";
import { payoutIdSchema } from "@/lib/payouts/schemas";

/** Shows a pay-out request's recipient number unmasked; every reveal is audited (recipients.reveal). */
export const revealPayoutRecipientNumberAction = stepUpAction(
  "recipients.reveal",
  payoutIdSchema,
  (input, { actor }) =>
    revealRecipientNumber(actor, { type: "payoutRequest", id: input.id }, readPayoutRecipientNumber),
);
