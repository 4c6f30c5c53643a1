// CSV text per RFC 4180; cells that a spreadsheet would run as a formula are prefixed with a quote.
const NEEDS_QUOTES = /[",\r\n]/;
const FORMULA = /^[=+\-@\t\r]/;

export function csvCell(value: string | null, { text = false }: { text?: boolean } = {}): string {
  if (value === null) return "";
  const safe = text && FORMULA.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

export function csvLine(cells: string[]): string {
  return `${cells.join(",")}\r\n`;
}
