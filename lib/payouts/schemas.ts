/**
 * The one schema of the pay-out form (POST /host2host/payout), run by every server action; the form
 * shows the messages the review action words (the browser ships no zod: lib/payouts/limits.ts). Variants derive from
 * `payoutFields` with `.pick/.omit`.
 *
 * Every text field is refused by length before any other check (a 1 MB field costs one comparison),
 * then for invisible, control and bidi characters (lib/validation/text.ts) before its own format check.
 * Messages are catalog keys (`payouts.form.*`, `validation.*`) with their arguments in the issue; the
 * server action and the form word them in the user's language (lib/validation/issues.ts).
 * The output is normalised: method in its canonical spelling, recipient number as the platform wants it
 * (card and account digits only, phone +7XXXXXXXXXX), amount as a plain decimal string (typed with a
 * comma or a dot, see lib/validation/amount.ts), the client's
 * registration date as ISO-8601 UTC, webhook URL and override reason undefined when left empty.
 */
import { z } from "zod";
import { clientDataFields } from "@/lib/anti-fraud/client-data";
import { LIMITS } from "./limits";
import {
  isMonoBankMethod,
  isPayOutMethod,
  normalisePaymentMethod,
  type PayOutMethod,
} from "@/lib/platform/payment-methods";
import { wireAmount } from "@/lib/validation/amount";
import { fieldMessage } from "@/lib/validation/field-names";
import { optionalTextField, textField } from "@/lib/validation/fields";
import type { Problem } from "@/lib/i18n/issues";
import { safeText } from "@/lib/validation/text";
import { luhnValid } from "./luhn";
import { normaliseRuPhone } from "./phone";

/** idTransactionMerchant of console pay-outs: fixed when the request is created, never reused. */
export const MERCHANT_ID = /^po-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

// ---- amount -------------------------------------------------------------------------------------

/** Either decimal separator ("1500,50", "1 500.50"); the value is the plain decimal string ("1500.5"). */
const amount = textField("amount", LIMITS.amount).transform(
  wireAmount("payouts.form.amount", LIMITS.amountIntegerDigits),
);

// ---- method -------------------------------------------------------------------------------------

const paymentMethod = textField("paymentMethod", LIMITS.paymentMethod).transform((v, ctx): PayOutMethod => {
  const m = v === "" ? null : normalisePaymentMethod(v);
  if (m && isPayOutMethod(m)) return m;
  ctx.addIssue(
    v === ""
      ? { code: "custom", message: "payouts.form.paymentMethod.required" }
      : m
        ? { code: "custom", message: "payouts.form.paymentMethod.notForPayouts", params: { method: m } }
        : { code: "custom", message: "payouts.form.paymentMethod.unknown" },
  );
  return z.NEVER;
});

// ---- recipient number ---------------------------------------------------------------------------

/** The number normalised for the method, or the problem (a key of `payouts.form.recipientNumber`). */
export type RecipientCheck = { ok: true; value: string } | ({ ok: false } & Problem);

const refused = (problem: string, params?: Problem["params"]): RecipientCheck => ({
  ok: false,
  message: `payouts.form.recipientNumber.${problem}`,
  ...(params ? { params } : {}),
});

/**
 * No payment card number starts with 0 (ISO/IEC 7812's first digit is 0 for no bank card), and zeros in
 * front of a card leave its Luhn sum as it is: "0" + card would be a recipient of its own, outside the
 * duplicate guard and the recipient's window. Refused, never stripped: the person sees what they typed.
 */
const CARD_LEADING_ZERO = "payouts.form.recipientNumber.cardLeadingZero";

function cardNumber(raw: string): RecipientCheck {
  const digits = raw.replace(/[\s-]/g, "");
  if (!/^\d+$/.test(digits)) return refused("cardDigitsOnly");
  if (digits.length < 16 || digits.length > 19) return refused("cardLength", { count: digits.length });
  if (digits.startsWith("0")) return refused("cardLeadingZero");
  if (!luhnValid(digits)) return refused("cardLuhn");
  return { ok: true, value: digits };
}

function phoneNumber(raw: string): RecipientCheck {
  const phone = normaliseRuPhone(raw);
  return phone ? { ok: true, value: phone } : refused("phone");
}

function accountNumber(raw: string): RecipientCheck {
  const digits = raw.replace(/[\s-]/g, "");
  if (!/^\d{20}$/.test(digits)) return refused("account");
  return { ok: true, value: digits };
}

/**
 * The recipient number checked and normalised for the method: card 16-19 digits passing Luhn, not
 * starting with 0, sbp a phone normalised to +7XXXXXXXXXX (+7, 7 and 8 in front are one recipient),
 * toAccount 20 digits; a mono-bank method takes a card or a phone. One recipient has one spelling: the
 * duplicate guard, the recipient's window and its lock compare these strings as they are.
 */
export function checkRecipientNumber(method: PayOutMethod, raw: string): RecipientCheck {
  const value = raw.trim();
  if (value === "") return refused("required");
  if (method === "toCard") return cardNumber(value);
  if (method === "sbp") return phoneNumber(value);
  if (method === "toAccount") return accountNumber(value);
  if (isMonoBankMethod(method)) {
    const card = cardNumber(value);
    // 16-19 digits starting with 0 are meant as a card (a phone has 11 digits): say what is wrong
    if (card.ok || card.message === CARD_LEADING_ZERO) return card;
    const phone = phoneNumber(value);
    if (phone.ok) return phone;
    return refused("cardOrPhone", { method });
  }
  return refused("unknownMethod");
}

// ---- the form -----------------------------------------------------------------------------------

export const payoutFields = z.object(
  {
    paymentMethod,
    bankName: textField("bank", LIMITS.bankName).refine((v) => v !== "", "payouts.form.bank.required"),
    recipientNumber: textField("recipientNumber", LIMITS.recipientNumber),
    recipientName: z
      .string({
        error: (issue) =>
          issue.input === null
            ? "payouts.form.recipientName.null"
            : issue.input === undefined
              ? "payouts.form.recipientName.missing"
              : "validation.notText",
      })
      .max(LIMITS.recipientName, { error: fieldMessage("recipientName", "tooLong"), abort: true })
      .trim()
      .superRefine(safeText("recipientName")),
    amount,
    ...clientDataFields,
    // Sent as parsed (WHATWG): the platform gets the form the private-address check saw, never a
    // spelling its own parser might read differently. That check needs a setting: see checkWebhookUrl.
    webhookUrl: optionalTextField("webhookUrl", LIMITS.webhookUrl)
      .pipe(z.url({ protocol: /^https?$/, error: "validation.webhookUrl.invalid" }).optional())
      .transform((v) => (v === undefined ? undefined : new URL(v).href)),
    overrideReason: optionalTextField("overrideReason", LIMITS.overrideReason, { multiline: true }),
    // Generated by the review step and sent back with the confirmation: a double-clicked "Create"
    // finds the request it already created instead of making a second one.
    idTransactionMerchant: optionalTextField("merchantId", 64).refine(
      (v) => v === undefined || MERCHANT_ID.test(v),
      "payouts.form.merchantId.invalid",
    ),
  },
  { error: "payouts.form.fields" },
);

/** The full form: fields plus the per-method check of the recipient number. */
export const payoutFormSchema = payoutFields.transform((v, ctx) => {
  const recipient = checkRecipientNumber(v.paymentMethod, v.recipientNumber);
  if (!recipient.ok) {
    ctx.addIssue({
      code: "custom",
      path: ["recipientNumber"],
      message: recipient.message,
      params: recipient.params,
    });
    return z.NEVER;
  }
  return { ...v, recipientNumber: recipient.value };
});

export type PayoutFormInput = z.input<typeof payoutFields>;
export type PayoutForm = z.output<typeof payoutFormSchema>;

export const payoutIdSchema = z.object(
  { id: z.uuid({ error: "payouts.form.id.invalid" }).transform((s) => s.toLowerCase()) },
  { error: "payouts.form.id.missing" },
);

export const decisionSchema = payoutIdSchema.extend({
  comment: textField("comment", LIMITS.comment, { multiline: true }).refine(
    (v) => v !== "",
    "payouts.form.comment.required",
  ),
});

export const cancelSchema = payoutIdSchema.extend({
  comment: optionalTextField("comment", LIMITS.comment, { multiline: true }),
});
