"use server";
import { currentLocale, translatorFor } from "@/lib/auth/translator";
import { z } from "zod";
import { authorizedAction, stepUpAction } from "@/lib/auth/action";
import { readRecipientNumber } from "@/lib/operations/detail/operation-detail";
import { parseOperationFilter, viewParams } from "@/lib/operations/list/filter";
import { REFRESHES_PER_MINUTE, refreshOperation, type RefreshResult } from "@/lib/operations/mirror/refresh";
import { deleteView, saveView } from "@/lib/operations/list/saved-views";
import { maySearch, searchRefusalMessage } from "@/lib/operations/list/search-policy";
import { revealRecipientNumber } from "@/lib/recipients/reveal";
import { safeText } from "@/lib/validation/text";

const operationId = z.object({
  id: z.uuid("operations.detail.notOperationId").transform((s) => s.toLowerCase()),
});

/** Reads the operation from the platform and applies it to the mirror (operations.refresh). */
export const refreshOperationAction = authorizedAction(
  "operations.refresh",
  operationId,
  async (input, { user }) => {
    const result = await refreshOperation(input.id, user.id);
    if (result.ok) return result;
    return { ...result, message: await refreshFailureMessage(result) };
  },
);

async function refreshFailureMessage(failure: Exclude<RefreshResult, { ok: true }>): Promise<string> {
  const t = await translatorFor("operations.detail");
  switch (failure.code) {
    case "rate_limited":
      return t("refreshRateLimited", { limit: REFRESHES_PER_MINUTE });
    case "not_found":
      return t(failure.missingFrom === "mirror" ? "refreshNotMirrored" : "refreshNotFound");
    case "platform_error":
      return t(`refreshFailed.${failure.kind}`);
  }
}

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
    .min(1, "operations.views.nameRequired")
    .max(80, "operations.views.nameTooLong")
    .superRefine(safeText("view name")),
  query: z.string().max(4000),
});

/** Saves the current filter, columns and page size under a name for the signed-in user. */
export const saveViewAction = authorizedAction("operations.read", viewInput, async (input, { user }) => {
  const parsed = parseOperationFilter(new URLSearchParams(input.query), await currentLocale());
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
    const message = await searchRefusalMessage(allowed);
    return { ok: false as const, code: "invalid" as const, message, fieldErrors: { q: [message] } };
  }
  const view = await saveView(user.id, input.name, viewParams(parsed.filter).toString());
  return { ok: true as const, view };
});

/** Deletes one of the signed-in user's saved views. */
export const deleteViewAction = authorizedAction("operations.read", operationId, async (input, { user }) => {
  const deleted = await deleteView(user.id, input.id);
  if (deleted) return { ok: true as const };
  const t = await translatorFor("operations.views");
  return { ok: false as const, code: "not_found" as const, message: t("notFound") };
});
