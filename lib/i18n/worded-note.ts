/**
 * A note a job stored as a code and its arguments, worded for the reader: `text` in the reader's
 * language, `data` what is shown as it is (an exception's message, a parser's complaint, an old row's
 * sentence from before codes were stored), set apart in monospace and marked translate="no".
 */
export type WordedNote = { text: string; data: string | null; /** words after the data */ after?: string };

type Value = string | number | Date;

/**
 * A translator over the whole catalog (no namespace): `getTranslations()`, `useTranslations()` or
 * `translatorIn` without a namespace. The note's keys are built from stored codes, so they are plain
 * strings here; tests hold every code to a message in both catalogs.
 */
export type Words = { (key: string, values?: Record<string, Value>): string; has(key: string): boolean };

/** A next-intl translator without a namespace, seen as Words (its keys are typed; ours are built). */
export function asWords(t: unknown): Words {
  return t as Words;
}

/** Text and data as one line (a cell's title, a test's expectation). */
export function noteLine(note: WordedNote): string {
  return [note.text, note.data, note.after].filter(Boolean).join(" ");
}

export type JsonObject = Record<string, unknown>;

/** A stored jsonb argument object, or an empty one when the column holds anything else. */
export function argsObject(value: unknown): JsonObject {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as JsonObject) : {};
}

export const text = (v: unknown): string => (typeof v === "string" ? v : v == null ? "" : JSON.stringify(v));
export const count = (v: unknown): number => (typeof v === "number" && Number.isFinite(v) ? v : 0);
export const list = (v: unknown): string =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === "string").join(", ") : text(v);

/** A stored instant for the reader (`when`), or the stored value as it is when it is not one. */
export function instant(v: unknown, when: (iso: string) => string): string {
  return typeof v === "string" && !Number.isNaN(Date.parse(v)) ? when(v) : text(v);
}
