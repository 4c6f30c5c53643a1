import {
  AZN_METHODS,
  KNOWN_MONO_BANK_METHODS,
  KZT_METHODS,
  RUB_METHODS,
} from "@/lib/platform/payment-methods";

/** Methods offered for pay-in (every RUB method, the known mono-bank pairs, KZT and AZN). */
export const payInMethods = [...RUB_METHODS, ...KNOWN_MONO_BANK_METHODS, ...KZT_METHODS, ...AZN_METHODS];
