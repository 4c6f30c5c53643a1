/** Payment methods of the spec ("Payment methods (paymentMethod)") and the mono-bank aliases. */

export const MONO_BANK_ALIASES = ["sber", "tbank", "alfa", "vtb", "ozon", "gazprom", "psb", "raif"] as const;

export type MonoBankAlias = (typeof MONO_BANK_ALIASES)[number];

/** Bank behind each mono-bank alias (names as in the bank directory). */
export const MONO_BANK_NAMES: Record<MonoBankAlias, string> = {
  sber: "Сбербанк",
  tbank: "Т-Банк",
  alfa: "Альфа-Банк",
  vtb: "ВТБ",
  ozon: "Озон Банк",
  gazprom: "Газпромбанк",
  psb: "ПСБ",
  raif: "Райффайзенбанк",
};

export const MONO_BANK_METHODS: string[] = MONO_BANK_ALIASES.map((alias) => `${alias}_${alias}`);

export const RUB_BOTH_WAYS = ["toCard", "sbp", "toAccount"];
export const RUB_PAY_IN_ONLY = ["transgran", "transgranSBP", "nspk", "ecom", "mobile"];
export const KZT_METHODS = ["kzt_c2c", "kzt_sbp", "kzt_mobile", "kzt_qr", "kzt_transgran"];
export const AZN_METHODS = ["azn_c2c", "azn_quasi"];

export const ALL_METHODS: string[] = [
  ...RUB_BOTH_WAYS,
  ...RUB_PAY_IN_ONLY,
  ...MONO_BANK_METHODS,
  ...KZT_METHODS,
  ...AZN_METHODS,
];

/** Methods that the spec lists as not applicable to pay-out. */
export const PAY_IN_ONLY_METHODS: ReadonlySet<string> = new Set(RUB_PAY_IN_ONLY);

export const ALL_RUB_PAY_IN_METHODS: string[] = [...RUB_BOTH_WAYS, ...RUB_PAY_IN_ONLY, ...MONO_BANK_METHODS];
export const ALL_RUB_PAY_OUT_METHODS: string[] = [...RUB_BOTH_WAYS, ...MONO_BANK_METHODS];

const CANONICAL_BY_LOWER = new Map(ALL_METHODS.map((method) => [method.toLowerCase(), method]));

/** Canonical spelling of a method; clients send other casings (`SBP`, `ToCard`), which the platform accepts. */
export function canonicalMethod(value: string): string | undefined {
  return CANONICAL_BY_LOWER.get(value.toLowerCase());
}

export function monoBankAlias(method: string): MonoBankAlias | undefined {
  const [left, right] = method.split("_");
  const alias = MONO_BANK_ALIASES.find((candidate) => candidate === left);
  return alias !== undefined && left === right ? alias : undefined;
}

export function currencyOfMethod(method: string, paymentCurrency: string): string {
  if (method.startsWith("kzt_")) return "KZT";
  if (method.startsWith("azn_")) return "AZN";
  return paymentCurrency;
}

/** The kind of number the details of a method carry. */
export type DetailsKind = "card" | "phone" | "account";

export function detailsKind(method: string): DetailsKind {
  if (
    method === "sbp" ||
    method === "transgranSBP" ||
    method === "mobile" ||
    method === "kzt_sbp" ||
    method === "kzt_mobile"
  )
    return "phone";
  if (method === "toAccount" || method === "azn_quasi") return "account";
  return "card";
}
