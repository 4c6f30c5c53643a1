"use server";
import { z } from "zod";
import { authorizedAction } from "@/lib/auth/action";
import { createPaymentLink, createPayIn } from "@/lib/payins/create";
import { fullLinkSchema, payInSchema, prepareLinkSchema } from "@/lib/payins/schemas";
import { getPlatformClient } from "@/lib/platform/from-env";

const linkInput = z.discriminatedUnion(
  "mode",
  [
    prepareLinkSchema.extend({ mode: z.literal("prepare") }).strict(),
    fullLinkSchema.extend({ mode: z.literal("full") }).strict(),
  ],
  { error: "payins.form.mode" },
);

/**
 * Creates a host-to-host pay-in (payins.create). The transfer details come back in this result only:
 * single-use, valid for this operation only, never offered again.
 */
export const createPayInAction = authorizedAction("payins.create", payInSchema, async (input, { actor }) =>
  createPayIn(getPlatformClient(), actor, input),
);

/** Creates a payment link, `prepare` or `full` (payins.create); returns the link and a QR code. */
export const createPaymentLinkAction = authorizedAction(
  "payins.create",
  linkInput,
  async (input, { actor }) => createPaymentLink(getPlatformClient(), actor, input),
);
