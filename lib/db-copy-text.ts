/**
 * Rows for `COPY … FROM STDIN` in PostgreSQL's text format: one line per row, fields separated by tabs,
 * `\N` for NULL, and a backslash before each backslash, newline, carriage return and tab in a value.
 */

const ESCAPED = /[\\\n\r\t\0]/;
const ESCAPED_ALL = /[\\\n\r\t\0]/g;
const ESCAPES: Record<string, string> = { "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t" };

export class CopyTextError extends Error {
  constructor(readonly column: string) {
    super(`${column}: a NUL character cannot be stored (PostgreSQL text cannot hold it)`);
    this.name = "CopyTextError";
  }
}

function field(text: string, column: string): string {
  if (!ESCAPED.test(text)) return text;
  return text.replace(ESCAPED_ALL, (c) => {
    if (c === "\0") throw new CopyTextError(column);
    return ESCAPES[c]!;
  });
}

/**
 * The COPY text of `rows` for `columns`, in that order. A value of one of `jsonColumns` is written as
 * its JSON text (a JSON string keeps its quotes), any other as its text; null and undefined are NULL.
 * Throws CopyTextError for a NUL character, which PostgreSQL's text cannot hold.
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
      else text += field(json[i] ? JSON.stringify(value) : String(value), columns[i]!);
    }
    text += "\n";
  }
  return text;
}
