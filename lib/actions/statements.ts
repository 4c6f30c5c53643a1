"use server";
import { z } from "zod";
import { authorizedAction } from "@/lib/auth/action";
import { issueStatement } from "@/lib/statements/issue";
import { annotateMovement } from "@/lib/statements/annotate";
import { translatorFor } from "@/lib/auth/translator";
import { periodQuerySchema, resolvePeriod } from "@/lib/statements/periods";
import { optionalTextField } from "@/lib/validation/fields";

// Only the period the page showed, as a custom period (shownPeriodQuery): a preset would be resolved
// again here, at the click, and could name other days than the page did.
const issueInput = periodQuerySchema
  .extend({ period: z.literal("custom", { error: "statements.period.issueShown" }) })
  .strict();

const annotateInput = z
  .object({
    id: z.uuid({ error: "statements.movement.notAnId" }).transform((s) => s.toLowerCase()),
    kind: z.enum(["topUp", "withdrawal", "adjustment"], { error: "statements.movement.chooseKind" }),
    reference: optionalTextField("reference", 200),
    note: optionalTextField("note", 2000, { multiline: true }),
  })
  .strict();

/** Freezes the statement of a period (statements.issue); audited. */
export const issueStatementAction = authorizedAction(
  "statements.issue",
  issueInput,
  async (input, { actor }) => {
    const resolved = resolvePeriod(input);
    if (!resolved.ok) {
      const t = await translatorFor("statements");
      const message = t(`period.${resolved.problem}`);
      return { ok: false as const, code: "invalid" as const, message, fieldErrors: {} };
    }
    const issued = await issueStatement(resolved.period, actor);
    return { ok: true as const, ...issued };
  },
);

/** Annotates a movement outside operations (balance.annotate); audited. */
export const annotateMovementAction = authorizedAction(
  "balance.annotate",
  annotateInput,
  async (input, { actor }) =>
    annotateMovement(actor, {
      id: input.id,
      kind: input.kind,
      reference: input.reference ?? null,
      note: input.note ?? null,
    }),
);
