/**
 * Text typed into a filter (search boxes, audit filters, trace lookup, view names) has no use for
 * control or invisible formatting characters, and some break things further on: PostgreSQL refuses a
 * NUL in a text parameter (a 500, or a CSV cut short after its 200), and a bidi override (U+202E)
 * makes shown text read differently from what it is. Refused: C0 and C1 controls (NUL, tab, newline,
 * U+0085...), format characters (bidi embeddings, overrides and isolates, zero-width characters, BOM,
 * soft hyphen), unpaired surrogates, and the Unicode line and paragraph separators.
 */
const UNUSABLE_IN_FILTER = /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}]/u;

export const filterTextMessage =
  "Remove control or invisible formatting characters (such as NUL or a text-direction override).";

/** True when the text holds nothing a filter refuses. */
export function isUsableFilterText(value: string): boolean {
  return !UNUSABLE_IN_FILTER.test(value);
}
