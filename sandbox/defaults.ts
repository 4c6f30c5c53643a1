import { ALL_RUB_PAY_IN_METHODS, ALL_RUB_PAY_OUT_METHODS } from "./methods";
import type { MerchantSettings } from "./types";

/** The default merchants: `demo` (seeded history) and `other` (no operations, for isolation). */

const NO_FORM_URLS = { redirectGeneralURL: null, redirectSuccessURL: null, redirectFailURL: null };

export const DEFAULT_MAX_TAKE = 1000;

/** What the default merchants share; fresh objects on each call (settings change at run time). */
function commonSettings() {
  return {
    balanceCurrency: "USDT",
    paymentCurrency: "RUB",
    dialect: "spec",
    randomization: { enabled: false, maxAdd: "1" },
    maxTake: DEFAULT_MAX_TAKE,
    webhookUrl: null,
    webhookBody: "envelope",
    webhookBearerToken: null,
    detailsPoolSize: 50,
    detailsPoolOverrides: {},
    fraudRatePerMinute: 30,
  } satisfies Partial<MerchantSettings>;
}

export function defaultMerchants(): MerchantSettings[] {
  return [
    {
      id: "demo",
      name: "Demo Shop",
      ...commonSettings(),
      tariff: { payIn: [...ALL_RUB_PAY_IN_METHODS], payOut: [...ALL_RUB_PAY_OUT_METHODS] },
      commission: { payIn: "3", payOut: "2" },
      rate: "95.5",
      otherRates: { KZT: "512.4", AZN: "1.7" },
      formDefaults: { ...NO_FORM_URLS, redirectGeneralURL: "http://localhost:3000/" },
    },
    {
      id: "other",
      name: "Other Merchant",
      ...commonSettings(),
      tariff: { payIn: ["toCard", "sbp"], payOut: ["toCard", "sbp"] },
      commission: { payIn: "2.5", payOut: "1.5" },
      rate: "96",
      otherRates: {},
      formDefaults: { ...NO_FORM_URLS },
    },
  ];
}

/** Size of the demo merchant's seeded history at first start (deterministic for DEMO_SEED). */
export const DEMO_HISTORY = { count: 1200, days: 90, seed: 20251118 };
