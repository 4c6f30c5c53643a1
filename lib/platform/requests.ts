/**
 * Request schemas (zod 4) and the wire bodies built from them. Everything is checked before anything
 * is sent: a bad amount (more than four decimals, exponent text, not positive, not a decimal), an
 * unknown or not-allowed method, a missing field all throw PlatformRequestError naming the field.
 * Amounts are written as JSON numbers in plain notation ("amount":62.5), never as strings.
 */
import "server-only";
import { z } from "zod";
import { InvalidAmountError, type Decimal } from "@/lib/money/decimal";
import { PlatformRequestError } from "./errors";
import { normalisedText } from "./normalised-text";
import {
  isPayOutMethod,
  normalisePaymentMethod,
  type PaymentMethod,
  type PayOutMethod,
} from "./payment-methods";
import { parsePlatformTimestamp } from "./timestamps";
import { LosslessNumber, amountToWire, type WireObject, type WireValue } from "./wire";

// ---- input types (what callers pass) --------------------------------------------------------------

/** Anti-fraud data required on every creation call. Dummy values (0.0.0.0, random ids) trigger `fraud`. */
export interface ClientData {
  clientID: string;
  clientIP: string;
  /** Registration date of the end client; a Date or an ISO-8601 string. */
  clientDateCreated: Date | string;
}

export interface PayInRequest extends ClientData {
  paymentMethod: PaymentMethod;
  idTransactionMerchant: string;
  /** Decimal or plain decimal string, > 0, at most four decimals. */
  amount: Decimal | string;
  integrationMerhcnatData?: { webHook?: string };
}

export interface PayOutRequest extends Omit<PayInRequest, "paymentMethod"> {
  paymentMethod: PayOutMethod;
  /** Recipient card, phone or account number (masked in call records). */
  number: string;
  /** A value from the bank directory. */
  bankName: string;
  /** Recipient name; sent as "" when absent (the platform refuses null). */
  nameMediator?: string;
}

export interface FormRedirects {
  webHook?: string;
  redirectGeneralURL?: string;
  redirectSuccessURL?: string;
  redirectFailURL?: string;
}

export interface PreparePaymentFormRequest extends ClientData {
  idTransactionMerchant: string;
  amount: Decimal | string;
  integrationMerhcnatData?: FormRedirects;
}

export interface FullPaymentFormRequest extends PreparePaymentFormRequest {
  paymentMethod: PaymentMethod;
}

export interface ListOperationsRequest {
  /** Records skipped from the start (newest first). */
  skip: number;
  /** Records returned (upper bound set by the platform). */
  take: number;
}

// ---- schemas -------------------------------------------------------------------------------------

const amount = z.custom<Decimal | string>().transform((v, ctx): WireValue => {
  try {
    return amountToWire(v, "amount");
  } catch (e) {
    if (!(e instanceof InvalidAmountError)) throw e;
    ctx.addIssue({ code: "custom", message: e.message.replace(/^amount: /, "") });
    return z.NEVER;
  }
});

const nonEmpty = z.string().trim().min(1, "required");

const url = z.url({ protocol: /^https?$/, error: "expected an http(s) URL" });

const clientDate = z.union([z.date(), z.string()]).transform((v, ctx): string => {
  // z.date() has already refused an invalid Date.
  if (v instanceof Date) return v.toISOString();
  if (parsePlatformTimestamp(v)) return v.trim();
  ctx.addIssue({ code: "custom", message: "expected an ISO-8601 date" });
  return z.NEVER;
});

const payInMethod = normalisedText(normalisePaymentMethod, "payment method");

const payOutMethod = z.string().transform((v, ctx): PayOutMethod => {
  const m = normalisePaymentMethod(v);
  if (m && isPayOutMethod(m)) return m;
  ctx.addIssue({
    code: "custom",
    message: m ? `${m} is not available for pay-out` : `unknown payment method ${JSON.stringify(v)}`,
  });
  return z.NEVER;
});

const clientFields = {
  idTransactionMerchant: nonEmpty,
  amount,
  clientID: nonEmpty,
  clientIP: z.union([z.ipv4(), z.ipv6()], { error: "expected an IPv4 or IPv6 address" }),
  clientDateCreated: clientDate,
};

const webHookOnly = z.object({ webHook: url.optional() }).optional();
const formRedirects = z
  .object({
    webHook: url.optional(),
    redirectGeneralURL: url.optional(),
    redirectSuccessURL: url.optional(),
    redirectFailURL: url.optional(),
  })
  .optional();

export const payInRequestSchema = z.object({
  paymentMethod: payInMethod,
  ...clientFields,
  integrationMerhcnatData: webHookOnly,
});
export const payOutRequestSchema = z.object({
  paymentMethod: payOutMethod,
  ...clientFields,
  number: nonEmpty,
  bankName: nonEmpty,
  nameMediator: z.string().optional(),
  integrationMerhcnatData: webHookOnly,
});
export const preparePaymentFormRequestSchema = z.object({
  ...clientFields,
  integrationMerhcnatData: formRedirects,
});
export const fullPaymentFormRequestSchema = preparePaymentFormRequestSchema.extend({
  paymentMethod: payInMethod,
});
export const listOperationsRequestSchema = z.object({
  skip: z.number().int().min(0),
  take: z.number().int().min(1),
});

// ---- body builders -------------------------------------------------------------------------------

function parseOrRefuse<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw new PlatformRequestError(
    result.error.issues.map((i) => ({ field: i.path.join("."), message: i.message })),
  );
}

/** Drops undefined values; returns undefined for an object left empty. */
function compact(obj: Record<string, string | undefined> | undefined): WireObject | undefined {
  if (!obj) return undefined;
  const out: WireObject = {};
  for (const [k, v] of Object.entries(obj)) if (v !== undefined) out[k] = v;
  return Object.keys(out).length ? out : undefined;
}

function withIntegration(
  body: WireObject,
  integration: Record<string, string | undefined> | undefined,
): WireObject {
  const data = compact(integration);
  if (data) body.integrationMerhcnatData = data;
  return body;
}

type ParsedClient = {
  idTransactionMerchant: string;
  amount: WireValue;
  clientID: string;
  clientIP: string;
  clientDateCreated: string;
};

function clientBody(p: ParsedClient): WireObject {
  return {
    idTransactionMerchant: p.idTransactionMerchant,
    amount: p.amount,
    clientID: p.clientID,
    clientIP: p.clientIP,
    clientDateCreated: p.clientDateCreated,
  };
}

export function buildPayInBody(input: PayInRequest): WireObject {
  const p = parseOrRefuse(payInRequestSchema, input);
  return withIntegration({ paymentMethod: p.paymentMethod, ...clientBody(p) }, p.integrationMerhcnatData);
}

export function buildPayOutBody(input: PayOutRequest): WireObject {
  const p = parseOrRefuse(payOutRequestSchema, input);
  return withIntegration(
    {
      paymentMethod: p.paymentMethod,
      ...clientBody(p),
      number: p.number,
      bankName: p.bankName,
      nameMediator: p.nameMediator ?? "",
    },
    p.integrationMerhcnatData,
  );
}

export function buildPreparePaymentFormBody(input: PreparePaymentFormRequest): WireObject {
  const p = parseOrRefuse(preparePaymentFormRequestSchema, input);
  return withIntegration(clientBody(p), p.integrationMerhcnatData);
}

export function buildFullPaymentFormBody(input: FullPaymentFormRequest): WireObject {
  const p = parseOrRefuse(fullPaymentFormRequestSchema, input);
  return withIntegration({ paymentMethod: p.paymentMethod, ...clientBody(p) }, p.integrationMerhcnatData);
}

export function buildListOperationsBody(input: ListOperationsRequest): WireObject {
  const p = parseOrRefuse(listOperationsRequestSchema, input);
  return { skip: new LosslessNumber(String(p.skip)), take: new LosslessNumber(String(p.take)) };
}
