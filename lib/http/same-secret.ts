import { timingSafeEqual } from "node:crypto";

/** Compares a secret a caller sent with the expected one in time that does not depend on where they differ. */
export function sameSecret(given: string | null, expected: string): boolean {
  if (given === null) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
