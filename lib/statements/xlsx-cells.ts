import type ExcelJS from "exceljs";
import { Decimal } from "@/lib/money/decimal";

/**
 * A spreadsheet shows at most 15 significant digits of a number (Excel; a double holds any decimal of 15
 * digits exactly, not always one of 16). An amount with more ("123456789012.3456", NUMERIC(24,4) allows
 * 20) would show other digits than the statement's, so it is written as text: its exact decimal.
 */
const MAX_NUMBER_DIGITS = 15;

/** An amount written as text, right-aligned like the numbers around it. */
export type ExactText = { exact: string };
export type CellInput = string | number | null | ExactText;

const isExact = (v: CellInput): v is ExactText => typeof v === "object" && v !== null;

/** An exact decimal string as a cell: a number (finance sums those) when a spreadsheet shows it whole. */
export function amountCell(v: string | null): number | ExactText | null {
  if (v === null || v === "") return null;
  const d = new Decimal(v);
  return d.sd() <= MAX_NUMBER_DIGITS ? d.toNumber() : { exact: v };
}

const RIGHT: Partial<ExcelJS.Alignment> = { horizontal: "right" };

/** Adds a row (not committed): amounts too long for a number as right-aligned text. */
export function addRow(sheet: ExcelJS.Worksheet, values: CellInput[]): ExcelJS.Row {
  const row = sheet.addRow(values.map((v) => (isExact(v) ? v.exact : v)));
  values.forEach((v, i) => {
    if (isExact(v)) row.getCell(i + 1).alignment = RIGHT;
  });
  return row;
}
