/**
 * Payment methods (paymentMethod). Values are case-sensitive on the platform; some clients send
 * other casings (`SBP`, `ToCard`), so names are normalised to the canonical spelling.
 */
export const RUB_METHODS = [
  "toCard",
  "sbp",
  "toAccount",
  "transgran",
  "transgranSBP",
  "nspk",
  "ecom",
  "mobile",
] as const;
export const KZT_METHODS = ["kzt_c2c", "kzt_sbp", "kzt_mobile", "kzt_qr", "kzt_transgran"] as const;
export const AZN_METHODS = ["azn_c2c", "azn_quasi"] as const;
/** Mono-bank aliases seen in public integrations (the real list comes from the account manager). */
export const KNOWN_MONO_BANK_METHODS = [
  "sber_sber",
  "tbank_tbank",
  "alfa_alfa",
  "vtb_vtb",
  "ozon_ozon",
  "gazprom_gazprom",
  "psb_psb",
] as const;

export type RubMethod = (typeof RUB_METHODS)[number];
export type KztMethod = (typeof KZT_METHODS)[number];
export type AznMethod = (typeof AZN_METHODS)[number];
/** `<bank_alias>_<bank_alias>`: one acquiring bank on both sides (e.g. `sber_sber`). */
export type MonoBankMethod = `${string}_${string}`;
export type PaymentMethod = RubMethod | KztMethod | AznMethod | MonoBankMethod;
/** Methods the spec allows for pay-out: toCard, sbp, toAccount and the mono-bank methods. */
export type PayOutMethod = "toCard" | "sbp" | "toAccount" | MonoBankMethod;

const NAMED: readonly string[] = [...RUB_METHODS, ...KZT_METHODS, ...AZN_METHODS];
const BY_LOWER = new Map(NAMED.map((m) => [m.toLowerCase(), m]));
const MONO_BANK = /^([a-z][a-z0-9]*)_\1$/;

export function isMonoBankMethod(value: string): value is MonoBankMethod {
  return MONO_BANK.test(value);
}

/**
 * The canonical spelling of a known method (`SBP` -> `sbp`, `ToCard` -> `toCard`,
 * `SBER_SBER` -> `sber_sber`), or null when the value is not a known method nor a mono-bank pair.
 */
export function normalisePaymentMethod(value: string): PaymentMethod | null {
  const lower = value.trim().toLowerCase();
  const named = BY_LOWER.get(lower);
  if (named) return named as PaymentMethod;
  return isMonoBankMethod(lower) ? lower : null;
}

export function isPayOutMethod(method: PaymentMethod): method is PayOutMethod {
  return method === "toCard" || method === "sbp" || method === "toAccount" || isMonoBankMethod(method);
}
