import { z } from "zod";
import { ALL_METHODS, PAY_IN_ONLY_METHODS } from "./methods";

/** Bodies of the /__sandbox/ control endpoints. Decimal settings accept a string ("95.5") or a plain number. */

const DECIMAL_TEXT = /^\d+(\.\d{1,8})?$/;

const decimalSetting = z
  .union([z.string(), z.number()])
  .transform((value) => String(value))
  .refine((value) => DECIMAL_TEXT.test(value), "must be a non-negative decimal without exponent");

const positiveDecimalSetting = decimalSetting.refine(
  (value) => /[1-9]/.test(value),
  "must be greater than 0",
);

// The platform reports a rate with four decimals, and the rate an operation reports is the one its amounts
// were computed with (spec: Operation, exchangeRate): a rate with more decimals could not be both.
const rateSetting = positiveDecimalSetting.refine(
  (value) => /^\d+(\.\d{1,4})?$/.test(value),
  "a rate has at most 4 decimals",
);

const method = z.enum(ALL_METHODS as [string, ...string[]]);

const url = z.string().refine((value) => URL.canParse(value), "must be a URL");

export const merchantPatchSchema = z
  .object({
    name: z.string().min(1),
    tariff: z
      .object({
        payIn: z.array(method),
        payOut: z
          .array(method)
          .refine(
            (methods) => methods.every((m) => !PAY_IN_ONLY_METHODS.has(m)),
            "contains a pay-in-only method",
          ),
      })
      .partial()
      .strict(),
    commission: z.object({ payIn: decimalSetting, payOut: decimalSetting }).partial().strict(),
    rate: rateSetting,
    otherRates: z.record(z.string(), rateSetting),
    randomization: z.object({ enabled: z.boolean(), maxAdd: positiveDecimalSetting }).partial().strict(),
    maxTake: z.number().int().min(1).max(1_000_000),
    webhookUrl: url.nullable(),
    webhookBody: z.enum(["envelope", "bare"]),
    webhookBearerToken: z.string().min(1).nullable(),
    dialect: z.enum(["spec", "nested"]),
    literalRequestId: z.boolean(),
    detailsPoolSize: z.number().int().min(0).max(100_000),
    detailsPoolOverrides: z.record(z.string(), z.number().int().min(0).max(100_000)),
    fraudRatePerMinute: z.number().int().min(1).max(1_000_000),
    formDefaults: z
      .object({
        redirectGeneralURL: url.nullable(),
        redirectSuccessURL: url.nullable(),
        redirectFailURL: url.nullable(),
      })
      .partial()
      .strict(),
  })
  .partial()
  .strict();

export type MerchantPatch = z.infer<typeof merchantPatchSchema>;

export const seedSchema = z
  .object({
    merchant: z.string().min(1),
    count: z.number().int().min(1).max(2_000_000),
    days: z.number().int().min(1).max(3650).default(90),
    seed: z.number().int().optional(),
  })
  .strict();

export const statusMoveSchema = z.object({ status: z.string() }).strict();

export const BALANCE_AMOUNT = /^-?(0|[1-9]\d*)(\.\d{1,4})?$/;
