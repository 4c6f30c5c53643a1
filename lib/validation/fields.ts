// Zod builders for the text fields of forms and requests; client-safe, so a form shows the server's words.
// Their messages are catalog keys of the `validation` namespace, one sentence per field
// (`validation.field.<field>.required`), so that each reads naturally in Russian too.
import { z } from "zod";
import { fieldMessage, type FieldName } from "@/lib/validation/field-names";
import type { Problem } from "@/lib/i18n/issues";
import { safeText, type TextOptions } from "@/lib/validation/text";

/** A text field: wrong types, over-long values and invisible characters are refused first. */
export function textField(label: FieldName | (string & {}), max: number, options: TextOptions = {}) {
  return z
    .string({
      error: (issue) =>
        issue.input === undefined || issue.input === null
          ? fieldMessage(label, "required")
          : "validation.notText",
    })
    .max(max, { error: fieldMessage(label, "tooLong"), abort: true })
    .trim()
    .superRefine(safeText(label, options));
}

/** Empty text becomes undefined (optional fields of a form arrive as ""). */
export function optionalTextField(label: FieldName | (string & {}), max: number, options: TextOptions = {}) {
  return textField(label, max, options)
    .nullish()
    .transform((v) => (v ? v : undefined));
}

/** A refinement from a function that returns the problem (a catalog key and its arguments), or null. */
export function refuseWith(problem: (v: string) => Problem | null) {
  return (v: string, ctx: z.RefinementCtx) => {
    const found = problem(v);
    if (found) ctx.addIssue({ code: "custom", message: found.message, params: found.params });
  };
}
