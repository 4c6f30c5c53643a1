/**
 * An amount as a person types it, in either language: "1500,50", "1500.50", "1 500,50" (spaces or
 * no-break spaces between groups of three). What comes out is the plain decimal string the rest of
 * the code and the platform use ("1500.50"). Client-safe.
 *
 * Refused as ambiguous, because the same text means different amounts in Russian and English:
 * both separators ("1.500,50", "1,500.50"), a separator used twice ("1.500.000"), and one separator
 * followed by exactly three digits after an integer of one to three digits once zeros in front are
 * dropped ("1,500", "1.500", "01,500", "00,500": a thousands group or a decimal?); only a whole part of
 * exactly "0" is unambiguous ("0,500" is 0.5). The person is asked to write it without a group separator.
 */
export type AmountInput =
  { ok: true; value: string } | { ok: false; reason: "empty" | "ambiguous" | "notANumber" };

const GROUP_SPACES = /[ \u00a0\u202f\u2009]/g;
const GROUPED_INTEGER = /^\d{1,3}(?:[ \u00a0\u202f\u2009]\d{3})+$/;

export function parseAmountInput(text: string): AmountInput {
  const trimmed = text.trim();
  if (trimmed === "") return { ok: false, reason: "empty" };
  const sign = trimmed.startsWith("-") ? "-" : "";
  const unsigned = sign ? trimmed.slice(1) : trimmed;
  const [integerPart = "", ...rest] = unsigned.split(/[.,]/);
  if (/[ \u00a0\u202f\u2009]/.test(integerPart) && !GROUPED_INTEGER.test(integerPart)) {
    return { ok: false, reason: "notANumber" };
  }
  if (rest.some((part) => /[ \u00a0\u202f\u2009]/.test(part))) return { ok: false, reason: "notANumber" };
  const compact = unsigned.replace(GROUP_SPACES, "");
  const separators = compact.match(/[.,]/g) ?? [];
  if (separators.length > 1) return { ok: false, reason: "ambiguous" };
  const match = /^(\d+)(?:[.,](\d+))?$/.exec(compact);
  if (!match) return { ok: false, reason: "notANumber" };
  const [, whole = "", fraction] = match;
  // Zeros in front change nothing: "01,500" and "00001,500" read as "1,500". Only a whole part of exactly
  // "0" makes three digits after the separator a decimal ("0,500"); "00,500" could be 500 too.
  const significant = whole.replace(/^0+/, "");
  if (rest.length === 1 && fraction?.length === 3 && whole !== "0" && significant.length <= 3) {
    return { ok: false, reason: "ambiguous" };
  }
  return { ok: true, value: `${sign}${whole}${fraction === undefined ? "" : `.${fraction}`}` };
}
