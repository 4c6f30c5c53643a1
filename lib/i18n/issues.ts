/**
 * Schemas write a catalog key where they would write a sentence ("payouts.form.amount.ambiguous"), with
 * the sentence's arguments in the issue (`maximum` of a length check, `params` of a custom issue). The
 * server words them with lib/i18n/validation.ts; a form that runs the same schema in the browser words
 * them here with its `useTranslations()`. Client-safe.
 */
import type { z } from "zod";
import { setOwnProperty } from "@/lib/own-property";

export type FieldErrors = Record<string, string[] | undefined>;

/**
 * Appends a message to a field's list, the field's own whatever its name: a field named "toString" must
 * not find Object.prototype's, nor "__proto__" set a prototype.
 */
export function addFieldError(errors: FieldErrors, field: string, message: string): void {
  if (!Object.hasOwn(errors, field)) setOwnProperty<string[] | undefined>(errors, field, []);
  errors[field]!.push(message);
}

export type MessageArguments = Record<string, string | number>;

/** A problem with a value, in catalog terms: the key of its sentence and the sentence's arguments. */
export type Problem = { message: string; params?: MessageArguments };

/** The arguments a custom issue carries that a sentence can show: text and numbers only. */
export function messageArguments(params: unknown): MessageArguments {
  if (typeof params !== "object" || params === null) return {};
  return Object.fromEntries(
    Object.entries(params).filter(
      (entry): entry is [string, string | number] =>
        typeof entry[1] === "string" || typeof entry[1] === "number",
    ),
  );
}

export function issueArguments(issue: z.core.$ZodIssue): MessageArguments {
  const values: MessageArguments = {};
  if ("minimum" in issue) values.minimum = String(issue.minimum);
  if ("maximum" in issue) values.maximum = String(issue.maximum);
  if (issue.code === "custom") Object.assign(values, messageArguments(issue.params));
  return values;
}

const CATALOG_KEY = /^[a-zA-Z]+(\.[a-zA-Z0-9]+)+$/;

/**
 * The field errors of a failed parse in words: `word(key, arguments)` returns the sentence, or null when
 * the catalog has no such key (the message is then shown as it is: zod's own, already in words).
 */
export function wordedFieldErrors(
  error: z.ZodError,
  word: (key: string, values: MessageArguments) => string | null,
): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? "form");
    const worded = CATALOG_KEY.test(issue.message) ? word(issue.message, issueArguments(issue)) : null;
    addFieldError(out, field, worded ?? issue.message);
  }
  return out;
}
