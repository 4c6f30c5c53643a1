"use server";
import { z } from "zod";
import { authorizedAction, stepUpAction } from "@/lib/auth/action";
import { deliveryIdSchema, reprocessDelivery, revealDeliveryBody } from "@/lib/webhooks/inbox";

const deliveryId = z.object({ id: deliveryIdSchema }).strict();

/** Queues a processed delivery to be decided again (webhooks.reprocess); rejected/malformed ones stay. */
export const reprocessWebhookAction = authorizedAction(
  "webhooks.reprocess",
  deliveryId,
  async (input, { actor }) => reprocessDelivery(actor, input.id),
);

/** The raw body with recipient numbers unmasked (recipients.reveal); every reveal is audited. */
export const revealWebhookBodyAction = stepUpAction(
  "recipients.reveal",
  deliveryId,
  async (input, { actor }) => revealDeliveryBody(actor, input.id),
);
