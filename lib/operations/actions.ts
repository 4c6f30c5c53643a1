"use server";
import { z } from "zod";
import { authorizedAction, stepUpAction } from "@/lib/auth/action";
import { readRecipientNumber } from "@/lib/operations/detail";
import { parseOperationFilter, viewParams } from "@/lib/operations/filter";
import { refreshOperation } from "@/lib/operations/refresh";
import { deleteView, saveView } from "@/lib/operations/saved-views";
import { maySearch } from "@/lib/operations/search-policy";
import { revealRecipientNumber } from "@/lib/recipients/reveal";
import { safeText } from "@/lib/validation/text";

const operationId = z.object({ id: z.uuid("Not an operation id.").transform((s) => s.toLowerCase()) });

/** Reads the operation from the platform and applies it to the mirror (operations.refresh). */
export const refreshOperationAction = authorizedAction("operations.refresh", operationId, (input, { user }) =>
  refreshOperation(input.id, user.id),
);

/** Shows one recipient number unmasked; every reveal is written to the audit log (recipients.reveal). */
export const revealRecipientNumberAction = stepUpAction(
  "recipients.reveal",
  operationId,
  (input, { actor }) =>
    revealRecipientNumber(actor, { type: "operation", id: input.id }, readRecipientNumber),
);

const viewInput = z.object({
  name: z
    .string()
    .trim()
    .min(1, "Give the view a name.")
    .max(80, "At most 80 characters.")
    .superRefine(safeText("view name")),
  query: z.string().max(4000),
});

/** Saves the current filter, columns and page size under a name for the signed-in user. */
export const saveViewAction = authorizedAction("operations.read", viewInput, async (input, { user }) => {
  const parsed = parseOperationFilter(new URLSearchParams(input.query));
  if (!parsed.ok) {
    return {
      ok: false as const,
      code: "invalid" as const,
      message: parsed.message,
      fieldErrors: parsed.fieldErrors,
    };
  }
  const allowed = maySearch(user.role, parsed.filter.q);
  if (!allowed.ok) {
    return {
      ok: false as const,
      code: "invalid" as const,
      message: allowed.message,
      fieldErrors: { q: [allowed.message] },
    };
  }
  const view = await saveView(user.id, input.name, viewParams(parsed.filter).toString());
  return { ok: true as const, view };
});

/** Deletes one of the signed-in user's saved views. */
export const deleteViewAction = authorizedAction("operations.read", operationId, async (input, { user }) => {
  const deleted = await deleteView(user.id, input.id);
  return deleted
    ? { ok: true as const }
    : { ok: false as const, code: "not_found" as const, message: "No such view." };
});
