import { Secret, TOTP } from "otpauth";

/**
 * Time-based one-time codes (RFC 6238): SHA-1, 6 digits, 30-second steps, as every authenticator app
 * reads them. A code is accepted in its own step and the one before or after (clock drift), and only
 * once: the caller stores the step of the last code accepted and refuses any step not after it.
 */
export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_DIGITS = 6;
export const TOTP_WINDOW = 1;
const ISSUER = "Paydesk";

function totp(secretBase32: string, label = ""): TOTP {
  return new TOTP({
    issuer: ISSUER,
    label,
    algorithm: "SHA1",
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
    secret: Secret.fromBase32(secretBase32),
  });
}

/** A new random secret (160 bits, as RFC 4226 recommends), in base32 as apps take it typed in. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The otpauth:// URI an authenticator app reads from the QR code. */
export function otpauthUri(secretBase32: string, account: string): string {
  return totp(secretBase32, account).toString();
}

/** The 30-second step a moment falls in. */
export function stepAt(now: Date): number {
  return Math.floor(now.getTime() / 1000 / TOTP_PERIOD_SECONDS);
}

/** The code of a moment (tests and the e2e test compute codes this way too). */
export function codeAt(secretBase32: string, now: Date): string {
  return totp(secretBase32).generate({ timestamp: now.getTime() });
}

/** Six digits, spaces allowed between them ("123 456"), as apps show them. */
export function looksLikeTotp(input: string): boolean {
  return /^\d{3}\s?\d{3}$/.test(input.trim());
}

/**
 * The step of the code when it is valid at `now` (±1 step) and comes after `lastStep`; null otherwise.
 * Comparing with the last accepted step refuses a replayed code and any older one.
 */
export function acceptedStep(
  secretBase32: string,
  input: string,
  now: Date,
  lastStep: number | null,
): number | null {
  const token = input.replace(/\s/g, "");
  if (!/^\d{6}$/.test(token)) return null;
  const delta = totp(secretBase32).validate({ token, timestamp: now.getTime(), window: TOTP_WINDOW });
  if (delta === null) return null;
  const step = stepAt(now) + delta;
  return lastStep !== null && step <= lastStep ? null : step;
}
