"use server";
import { z } from "zod";
import { actorFor } from "@/lib/audit/actor";
import { authorizedAction } from "@/lib/auth/action";
import { deliveryIdSchema, reprocessDelivery, revealDeliveryBody } from "@/lib/webhooks/inbox";

const deliveryId = z.object({ id: deliveryIdSchema }).strict();

const reprocess = authorizedAction("webhooks.reprocess", deliveryId, async (input, user) =>
  reprocessDelivery(await actorFor(user), input.id),
);

const reveal = authorizedAction("recipients.reveal", deliveryId, async (input, user) =>
  revealDeliveryBody(await actorFor(user), input.id),
);

/** Queues a processed delivery to be decided again (webhooks.reprocess); rejected/malformed ones stay. */
export async function reprocessWebhookAction(input: unknown) {
  return reprocess(input);
}

/** The raw body with recipient numbers unmasked (recipients.reveal); every reveal is audited. */
export async function revealWebhookBodyAction(input: unknown) {
  return reveal(input);
}
