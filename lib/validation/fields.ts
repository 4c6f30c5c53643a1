// Zod builders for the text fields of forms and requests; client-safe, so a form shows the server's words.
import { z } from "zod";
import { safeText, type TextOptions } from "@/lib/validation/text";

/** A text field: wrong types, over-long values and invisible characters are refused first. */
export function textField(label: string, max: number, options: TextOptions = {}) {
  return z
    .string({
      error: (issue) =>
        issue.input === undefined || issue.input === null
          ? `Enter the ${label}.`
          : `The ${label} must be text.`,
    })
    .max(max, { error: `The ${label} is too long (at most ${max} characters).`, abort: true })
    .trim()
    .superRefine(safeText(label, options));
}

/** Empty text becomes undefined (optional fields of a form arrive as ""). */
export function optionalTextField(label: string, max: number, options: TextOptions = {}) {
  return textField(label, max, options)
    .nullish()
    .transform((v) => (v ? v : undefined));
}

/** A refinement from a function that returns the problem in words, or null when there is none. */
export function refuseWith(problem: (v: string) => string | null) {
  return (v: string, ctx: z.RefinementCtx) => {
    const message = problem(v);
    if (message) ctx.addIssue({ code: "custom", message });
  };
}
