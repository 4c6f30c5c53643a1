// CSV text per RFC 4180, the one encoder of every CSV export (operations, audit log, statements);
// cells that a spreadsheet would run as a formula are prefixed with a quote. The operations export
// writes its lines in SQL with the same rules (csvCellSql in ./sql.ts; the export tests compare them).
const NEEDS_QUOTES = /[",\r\n]/;
// With their full-width forms (＝ ＋ － ＠), which spreadsheets with East-Asian input may read as the same.
const FORMULA = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;

export const CSV_CONTENT_TYPE = "text/csv; charset=utf-8";

export function csvCell(value: string | null, { text = false }: { text?: boolean } = {}): string {
  if (value === null) return "";
  const safe = text && FORMULA.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

export function csvLine(cells: string[]): string {
  return `${cells.join(",")}\r\n`;
}
