import { z } from "zod";

/**
 * Wire text read through a normaliser (case and separators: `Success`, `IN_PROGRESS`, `PayIn`); a
 * value the normaliser does not know is a schema issue `unknown <what> "<value>"`.
 */
export function normalisedText<T extends string>(normalise: (value: string) => T | null, what: string) {
  return z.string().transform((v, ctx): T => {
    const normalised = normalise(v);
    if (normalised) return normalised;
    ctx.addIssue({ code: "custom", message: `unknown ${what} ${JSON.stringify(v)}` });
    return z.NEVER;
  });
}
