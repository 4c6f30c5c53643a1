/**
 * csvCell (./encode.ts) in SQL, for exports whose lines PostgreSQL writes: "" for NULL, quoted when
 * needed, a leading quote on text that looks like a formula. `expression` is SQL text of type text.
 */
export function csvCellSql(expression: string, { text = false }: { text?: boolean } = {}): string {
  const value = text
    ? `CASE WHEN ${expression} ~ '^[=+\\-@\\t\\r\\uFF1D\\uFF0B\\uFF0D\\uFF20]' THEN '''' || ${expression} ELSE ${expression} END`
    : expression;
  return `COALESCE(CASE WHEN ${value} ~ '[",\\r\\n]' THEN '"' || replace(${value}, '"', '""') || '"' ELSE ${value} END, '')`;
}
