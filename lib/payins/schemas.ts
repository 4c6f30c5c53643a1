// One schema for the pay-in and payment-link forms; each form picks its fields. Run by the server
// actions; the browser ships no zod (its list of methods is lib/payins/methods.ts). Messages are
// catalog keys (`payins.form.*`, `validation.*`).
import { z } from "zod";
import { clientDataFields } from "@/lib/anti-fraud/client-data";
import { normalisePaymentMethod } from "@/lib/platform/payment-methods";
import { payInMethods } from "./methods";
import { wireAmount } from "@/lib/validation/amount";
import { fieldMessage } from "@/lib/validation/field-names";
import { safeText } from "@/lib/validation/text";

export const MAX_AMOUNT_DIGITS = 20;

/** A return address of the hosted form: optional, http(s), no invisible characters. */
const redirectUrl = (field: "successRedirectUrl" | "failureRedirectUrl") =>
  z
    .string({ error: "validation.notText" })
    .trim()
    .max(2000, fieldMessage(field, "tooLong"))
    .superRefine(safeText(field))
    .transform((v) => (v === "" ? undefined : v))
    .pipe(z.url({ protocol: /^https?$/, error: "payins.form.redirectUrl.invalid" }).optional())
    .optional();

export const payInFormSchema = z
  .object({
    /** Chosen by the browser when the form opens: a resubmit of the same form never creates twice. */
    requestKey: z.uuid({ error: "payins.form.requestKey.invalid" }),
    /**
     * A positive amount typed with a comma or a dot ("1500,50", "1 500.50"; ambiguous spellings
     * refused), at most 4 decimals, no exponent; sent on as a plain decimal string ("1500.5").
     */
    amount: z
      .string({ error: "payins.form.amount.notText" })
      .max(40, "payins.form.amount.tooLong")
      .transform(wireAmount("payins.form.amount", MAX_AMOUNT_DIGITS)),
    paymentMethod: z
      .string({ error: "payins.form.paymentMethod.required" })
      .trim()
      .max(40, "payins.form.paymentMethod.unknown")
      .transform((v, ctx) => {
        const method = normalisePaymentMethod(v);
        if (!method || !(payInMethods as readonly string[]).includes(method)) {
          ctx.addIssue({
            code: "custom",
            message: v === "" ? "payins.form.paymentMethod.required" : "payins.form.paymentMethod.unknown",
          });
          return z.NEVER;
        }
        return method;
      }),
    ...clientDataFields,
    redirectSuccessURL: redirectUrl("successRedirectUrl"),
    redirectFailURL: redirectUrl("failureRedirectUrl"),
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
