/**
 * Rows for `COPY … FROM STDIN` in PostgreSQL's text format: one line per row, fields separated by tabs,
 * `\N` for NULL, and a backslash before each backslash, newline, carriage return and tab in a value.
 * Text PostgreSQL cannot store is stored as U+FFFD, as the mirror's other writes store it
 * (lib/storable-text.ts): a NUL in a text value, a `\u0000` or lone-surrogate escape in a JSON one (a
 * lone surrogate in text becomes U+FFFD in the UTF-8 the stream sends).
 */
import { storableJsonText } from "@/lib/storable-text";

const ESCAPED = /[\\\n\r\t\0]/;
const ESCAPED_ALL = /[\\\n\r\t\0]/g;
const ESCAPES: Record<string, string> = { "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t" };

function field(text: string): string {
  if (!ESCAPED.test(text)) return text;
  return text.replace(ESCAPED_ALL, (c) => (c === "\0" ? "\uFFFD" : ESCAPES[c]!));
}

/**
 * The COPY text of `rows` for `columns`, in that order. A value of one of `jsonColumns` is written as
 * its JSON text (a JSON string keeps its quotes), any other as its text; null and undefined are NULL.
 */
export function copyText<R extends object>(
  rows: readonly R[],
  columns: readonly (keyof R & string)[],
  jsonColumns: ReadonlySet<string> = new Set(),
): string {
  const json = columns.map((c) => jsonColumns.has(c));
  let text = "";
  for (const row of rows) {
    for (let i = 0; i < columns.length; i++) {
      const value: unknown = row[columns[i]!];
      if (i > 0) text += "\t";
      if (value === null || value === undefined) text += "\\N";
      else text += field(json[i] ? storableJsonText(JSON.stringify(value)) : String(value));
    }
    text += "\n";
  }
  return text;
}
