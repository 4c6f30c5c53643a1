// One schema for the pay-in and payment-link forms; each form picks its fields. Client-safe (no server
// imports) so forms can show the same limits.
import { z } from "zod";
import { clientDataFields } from "@/lib/anti-fraud/client-data";
import { Decimal } from "@/lib/money/decimal";
import {
  AZN_METHODS,
  KNOWN_MONO_BANK_METHODS,
  KZT_METHODS,
  normalisePaymentMethod,
  RUB_METHODS,
} from "@/lib/platform/payment-methods";
import { safeText } from "@/lib/validation/text";

/** Methods offered for pay-in (every RUB method, the known mono-bank pairs, KZT and AZN). */
export const payInMethods = [...RUB_METHODS, ...KNOWN_MONO_BANK_METHODS, ...KZT_METHODS, ...AZN_METHODS];

export const MAX_AMOUNT_DIGITS = 20;

/** An optional http(s) URL the payment form sends the client back to; empty means none. */
const redirectUrl = (what: string) =>
  z
    .string({ error: "The URL must be text." })
    .trim()
    .max(2000, "At most 2000 characters.")
    .superRefine(safeText(what))
    .transform((v) => (v === "" ? undefined : v))
    .pipe(z.url({ protocol: /^https?$/, error: "Enter an http(s) URL." }).optional())
    .optional();

export const payInFormSchema = z
  .object({
    /** Chosen by the browser when the form opens: a resubmit of the same form never creates twice. */
    requestKey: z.uuid({ error: "Reload the page and try again (missing form key)." }),
    /** A positive decimal string, at most 4 decimals, plain notation (no exponent, sign or spaces). */
    amount: z
      .string({ error: "Enter the amount as text, e.g. 1500.50." })
      .trim()
      .min(1, "Enter an amount.")
      .max(40, "The amount is too long.")
      .superRefine((v, ctx) => {
        const fail = (message: string) => ctx.addIssue({ code: "custom", message });
        if (v === "") return;
        if (v.startsWith("-")) return fail("The amount must be greater than zero.");
        if (/e/i.test(v)) return fail("Write the amount in plain digits, e.g. 1000 (no exponent).");
        if (!/^\d+(\.\d+)?$/.test(v)) return fail("Write the amount as digits with a dot, e.g. 1500.50.");
        if (!/^\d+(\.\d{1,4})?$/.test(v)) return fail("Use at most 4 digits after the decimal point.");
        if (v.split(".")[0]!.replace(/^0+(?=\d)/, "").length > MAX_AMOUNT_DIGITS)
          return fail("The amount is too large.");
        if (!new Decimal(v).greaterThan(0)) return fail("The amount must be greater than zero.");
      })
      .transform((v) => new Decimal(v).toFixed()),
    paymentMethod: z
      .string({ error: "Choose a payment method." })
      .trim()
      .max(40, "Unknown payment method.")
      .transform((v, ctx) => {
        const method = normalisePaymentMethod(v);
        if (!method || !(payInMethods as readonly string[]).includes(method)) {
          ctx.addIssue({
            code: "custom",
            message: v === "" ? "Choose a payment method." : "Unknown payment method.",
          });
          return z.NEVER;
        }
        return method;
      }),
    ...clientDataFields,
    redirectSuccessURL: redirectUrl("success redirect URL"),
    redirectFailURL: redirectUrl("failure redirect URL"),
  })
  .strict();

/** Host-to-host pay-in: the platform returns transfer details. */
export const payInSchema = payInFormSchema.omit({ redirectSuccessURL: true, redirectFailURL: true }).strict();
/** Payment link, client chooses the method on the hosted form (prepare). */
export const prepareLinkSchema = payInFormSchema.omit({ paymentMethod: true }).strict();
/** Payment link with a fixed method (full). */
export const fullLinkSchema = payInFormSchema.strict();

export type PayInInput = z.output<typeof payInSchema>;
export type PrepareLinkInput = z.output<typeof prepareLinkSchema>;
export type FullLinkInput = z.output<typeof fullLinkSchema>;
