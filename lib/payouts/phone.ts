/**
 * Russian mobile numbers for the fast-payment system (sbp), normalised to +7XXXXXXXXXX. Client-safe.
 * Accepted: +7XXXXXXXXXX, 7XXXXXXXXXX, 8XXXXXXXXXX, with spaces, dashes, dots or brackets between digits
 * ("+7 (912) 345-67-89"). Anything else (another country code, too few or too many digits, letters) is null.
 */
export function normaliseRuPhone(input: string): string | null {
  const trimmed = input.trim();
  if (!/^\+?[\d\s().-]+$/.test(trimmed)) return null;
  const plus = trimmed.startsWith("+");
  const digits = trimmed.replace(/\D/g, "");
  if (digits.length !== 11) return null;
  if (plus ? digits[0] !== "7" : digits[0] !== "7" && digits[0] !== "8") return null;
  return `+7${digits.slice(1)}`;
}
