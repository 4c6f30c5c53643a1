/**
 * The one schema of the pay-out form (POST /host2host/payout). Client-safe: the form runs it in the
 * browser for instant messages and every server action runs it again. Variants derive from
 * `payoutFields` with `.pick/.omit`.
 *
 * Every text field is refused by length before any other check (a 1 MB field costs one comparison),
 * then for invisible, control and bidi characters (lib/validation/text.ts) before its own format check.
 * The output is normalised: method in its canonical spelling, recipient number as the platform wants it
 * (card and account digits only, phone +7XXXXXXXXXX), amount as a plain decimal string, the client's
 * registration date as ISO-8601 UTC, webhook URL and override reason undefined when left empty.
 */
import { z } from "zod";
import { CLIENT_DATA_LIMITS, clientDataFields } from "@/lib/anti-fraud/client-data";
import { Decimal, WIRE_MAX_DECIMALS } from "@/lib/money/decimal";
import {
  isMonoBankMethod,
  isPayOutMethod,
  normalisePaymentMethod,
  type PayOutMethod,
} from "@/lib/platform/payment-methods";
import { optionalTextField, textField } from "@/lib/validation/fields";
import { safeText } from "@/lib/validation/text";
import { luhnValid } from "./luhn";
import { normaliseRuPhone } from "./phone";

/** idTransactionMerchant of console pay-outs: fixed when the request is created, never reused. */
export const MERCHANT_ID = /^po-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export const LIMITS = {
  paymentMethod: 64,
  bankName: 200,
  recipientNumber: 64,
  recipientName: 200,
  amount: 24,
  amountIntegerDigits: 15,
  ...CLIENT_DATA_LIMITS,
  webhookUrl: 2048,
  overrideReason: 500,
  comment: 1000,
} as const;

// ---- amount -------------------------------------------------------------------------------------

/** Message for an amount that cannot be sent, or null when it is a valid pay-out amount. */
export function amountProblem(value: string): string | null {
  const v = value.trim();
  if (v === "") return "Enter the amount.";
  if (/^[+-]?(\d+\.?\d*|\.\d+)[eE][+-]?\d+$/.test(v))
    return "Write the amount in plain digits, without an exponent (1000, not 1e3).";
  if (v.includes(",")) return "Use a dot as the decimal separator (1500.50).";
  if (v.startsWith("-")) return "The amount must be greater than zero.";
  if (!/^\d+(?:\.\d+)?$/.test(v)) return "Enter the amount as a number such as 1500.50.";
  const [whole = "", fraction = ""] = v.split(".");
  if (fraction.length > WIRE_MAX_DECIMALS)
    return `At most ${WIRE_MAX_DECIMALS} digits after the decimal point (the platform's precision).`;
  if (whole.replace(/^0+(?=\d)/, "").length > LIMITS.amountIntegerDigits) return "The amount is too large.";
  if (new Decimal(v).isZero()) return "The amount must be greater than zero.";
  return null;
}

const amount = textField("amount", LIMITS.amount).transform((v, ctx) => {
  const problem = amountProblem(v);
  if (problem) {
    ctx.addIssue({ code: "custom", message: problem });
    return z.NEVER;
  }
  return new Decimal(v).toFixed();
});

// ---- method -------------------------------------------------------------------------------------

const paymentMethod = textField("payment method", LIMITS.paymentMethod).transform((v, ctx): PayOutMethod => {
  const m = v === "" ? null : normalisePaymentMethod(v);
  if (m && isPayOutMethod(m)) return m;
  ctx.addIssue({
    code: "custom",
    message:
      v === ""
        ? "Choose a payment method."
        : m
          ? `${m} is not available for pay-outs; use toCard, sbp, toAccount or a mono-bank method.`
          : "Unknown payment method; use toCard, sbp, toAccount or a mono-bank method.",
  });
  return z.NEVER;
});

// ---- recipient number ---------------------------------------------------------------------------

export type RecipientCheck = { ok: true; value: string } | { ok: false; message: string };

function cardNumber(raw: string): RecipientCheck {
  const digits = raw.replace(/[\s-]/g, "");
  if (!/^\d+$/.test(digits)) return { ok: false, message: "A card number has digits only." };
  if (digits.length < 16 || digits.length > 19)
    return { ok: false, message: `A card number has 16 to 19 digits (this one has ${digits.length}).` };
  if (!luhnValid(digits))
    return { ok: false, message: "This card number fails the Luhn check: a digit is mistyped." };
  return { ok: true, value: digits };
}

function phoneNumber(raw: string): RecipientCheck {
  const phone = normaliseRuPhone(raw);
  return phone
    ? { ok: true, value: phone }
    : { ok: false, message: "Enter a Russian phone number: +7XXXXXXXXXX, 8XXXXXXXXXX or 7XXXXXXXXXX." };
}

function accountNumber(raw: string): RecipientCheck {
  const digits = raw.replace(/[\s-]/g, "");
  if (!/^\d{20}$/.test(digits)) return { ok: false, message: "An account number has exactly 20 digits." };
  return { ok: true, value: digits };
}

/**
 * The recipient number checked and normalised for the method: card 16-19 digits passing Luhn, sbp a
 * phone normalised to +7XXXXXXXXXX, toAccount 20 digits; a mono-bank method takes a card or a phone.
 */
export function checkRecipientNumber(method: PayOutMethod, raw: string): RecipientCheck {
  const value = raw.trim();
  if (value === "") return { ok: false, message: "Enter the recipient's number." };
  if (method === "toCard") return cardNumber(value);
  if (method === "sbp") return phoneNumber(value);
  if (method === "toAccount") return accountNumber(value);
  if (isMonoBankMethod(method)) {
    const card = cardNumber(value);
    if (card.ok) return card;
    const phone = phoneNumber(value);
    if (phone.ok) return phone;
    return {
      ok: false,
      message: `${method} takes a card number (16-19 digits, Luhn) or a phone number (+7XXXXXXXXXX).`,
    };
  }
  return { ok: false, message: "Unknown payment method." };
}

// ---- the form -----------------------------------------------------------------------------------

export const payoutFields = z.object(
  {
    paymentMethod,
    bankName: textField("bank", LIMITS.bankName).refine((v) => v !== "", "Choose the recipient's bank."),
    recipientNumber: textField("recipient number", LIMITS.recipientNumber),
    recipientName: z
      .string({
        error: (issue) =>
          issue.input === null
            ? "The recipient name cannot be null; leave it empty when unknown."
            : issue.input === undefined
              ? "The recipient name is missing; send an empty text when unknown."
              : "The recipient name must be text.",
      })
      .max(LIMITS.recipientName, {
        error: `The recipient name is too long (at most ${LIMITS.recipientName} characters).`,
        abort: true,
      })
      .trim()
      .superRefine(safeText("recipient name")),
    amount,
    ...clientDataFields,
    // Sent as parsed (WHATWG): the platform gets the form the private-address check saw, never a
    // spelling its own parser might read differently. That check needs a setting: see checkWebhookUrl.
    webhookUrl: optionalTextField("webhook URL", LIMITS.webhookUrl)
      .pipe(
        z
          .url({ protocol: /^https?$/, error: "Enter an http(s) URL, or leave the webhook empty." })
          .optional(),
      )
      .transform((v) => (v === undefined ? undefined : new URL(v).href)),
    overrideReason: optionalTextField("override reason", LIMITS.overrideReason, { multiline: true }),
    // Generated by the review step and sent back with the confirmation: a double-clicked "Create"
    // finds the request it already created instead of making a second one.
    idTransactionMerchant: optionalTextField("merchant id", 64).refine(
      (v) => v === undefined || MERCHANT_ID.test(v),
      "Not a merchant id issued by the review step.",
    ),
  },
  { error: "Send the pay-out fields." },
);

/** The full form: fields plus the per-method check of the recipient number. */
export const payoutFormSchema = payoutFields.transform((v, ctx) => {
  const recipient = checkRecipientNumber(v.paymentMethod, v.recipientNumber);
  if (!recipient.ok) {
    ctx.addIssue({ code: "custom", path: ["recipientNumber"], message: recipient.message });
    return z.NEVER;
  }
  return { ...v, recipientNumber: recipient.value };
});

export type PayoutFormInput = z.input<typeof payoutFields>;
export type PayoutForm = z.output<typeof payoutFormSchema>;

export const payoutIdSchema = z.object(
  { id: z.uuid({ error: "Not a pay-out request id." }).transform((s) => s.toLowerCase()) },
  { error: "Send the pay-out request id." },
);

export const decisionSchema = payoutIdSchema.extend({
  comment: textField("comment", LIMITS.comment, { multiline: true }).refine(
    (v) => v !== "",
    "Write a comment for the decision.",
  ),
});

export const cancelSchema = payoutIdSchema.extend({
  comment: optionalTextField("comment", LIMITS.comment, { multiline: true }),
});
