// Card numbers for tests. No database or server import: the browser tests use it too.
import { luhnValid } from "../../lib/payouts/luhn";

/** `prefix` (15 digits) with the check digit that makes it pass Luhn. */
export function withCheckDigit(prefix: string): string {
  for (let d = 0; d <= 9; d++) if (luhnValid(`${prefix}${d}`)) return `${prefix}${d}`;
  throw new Error("unreachable");
}

/** A fresh Luhn-valid card, so that tests never collide on recipient and amount. */
export function freshCard(): string {
  return withCheckDigit(`2200${String(Math.floor(Math.random() * 1e11)).padStart(11, "0")}`);
}
