/**
 * An operation's fields read without zod, for the forms the platform writes: a reconciliation reads a
 * thousand operations a page, and zod's object and pipe steps took half of the decoding's time.
 * operationFieldsSchema (schemas.ts) stays the definition of what is accepted: this reads an object only
 * when every field is in a form that schema takes, through the same field functions, and gives null for
 * anything else, which the schema then reads and words. tests/unit/platform/operation-fields.test.ts
 * holds the two to the same result on generated input.
 */
import "server-only";
import type { Decimal } from "@/lib/money/decimal";
import { normalisePaymentMethod, type PaymentMethod } from "./payment-methods";
import { isUuid } from "@/lib/uuid";
import { normaliseOperationStatus, normaliseOperationType } from "./operation-kinds";
import type { Operation } from "./schemas";
import { parsePlatformTimestamp } from "./timestamps";
import {
  AMOUNT_DIGITS,
  RATE_DIGITS,
  decimalFromWire,
  isWireObject,
  wireToRaw,
  type DecimalDigits,
  type RawJson,
  type WireObject,
  type WireValue,
} from "./wire";

export type WireTimestamp = { date: Date; text: string };

export interface PaymentDetails {
  paymentMethod: PaymentMethod | (string & {}) | null;
  bankName: string | null;
  nameMediator: string | null;
  number: string | null;
  numberAdditional: RawJson | null;
  qRcode: RawJson | null;
}

/** What operationFieldsSchema gives for an operation object: what decodeOperation builds an Operation of. */
export type OperationFields = Omit<
  Operation,
  | "dateAdded"
  | "dateAddedText"
  | "dateUpdated"
  | "dateUpdatedText"
  | "paymentDetailsData"
  | "linkPaymentForm"
  | "raw"
> & {
  dateAdded: WireTimestamp;
  dateUpdated?: WireTimestamp | null;
  paymentDetailsData?: PaymentDetails | null;
  linkPaymentForm?: string | null;
};

/** A field in a form left to the schema. A class, so that no value read from the wire can pass for one. */
class Refused {
  private readonly refused = true;
}
const REFUSED = new Refused();
type Read<T> = T | Refused;

const text = (v: WireValue | undefined): Read<string> => (typeof v === "string" ? v : REFUSED);

function timestamp(v: WireValue | undefined): Read<WireTimestamp> {
  if (typeof v !== "string") return REFUSED;
  const date = parsePlatformTimestamp(v);
  return date ? { date, text: v } : REFUSED;
}

/** undefined and null as they are (`.nullish()`), anything else through `read`. */
function nullish<T>(v: WireValue | undefined, read: (v: WireValue) => Read<T>): Read<T | null | undefined> {
  return v === undefined || v === null ? v : read(v);
}

const decimal = (v: WireValue | undefined, digits: DecimalDigits): Read<Decimal> =>
  decimalFromWire(v, digits) ?? REFUSED;

/** A secondary amount: absent or null reads as null. */
const nullableDecimal = (v: WireValue | undefined, digits: DecimalDigits): Read<Decimal | null> =>
  v === undefined || v === null ? null : decimal(v, digits);

const nullableText = (v: WireValue | undefined): Read<string | null> => nullish(v, text) ?? null;

const opaque = (v: WireValue | undefined): RawJson | null => (v === undefined ? null : wireToRaw(v));

function paymentDetails(v: WireValue): Read<PaymentDetails> {
  if (!isWireObject(v)) return REFUSED;
  const method = nullableText(v.paymentMethod);
  const bankName = nullableText(v.bankName);
  const nameMediator = nullableText(v.nameMediator);
  const number = nullableText(v.number);
  if (
    method instanceof Refused ||
    bankName instanceof Refused ||
    nameMediator instanceof Refused ||
    number instanceof Refused
  )
    return REFUSED;
  return {
    paymentMethod: method === null ? null : (normalisePaymentMethod(method) ?? method),
    bankName,
    nameMediator,
    number,
    numberAdditional: opaque(v.numberAdditional),
    qRcode: opaque(v.qRcode),
  };
}

function enumText<T>(v: WireValue | undefined, normalise: (value: string) => T | null): Read<T> {
  return (typeof v === "string" ? normalise(v) : null) ?? REFUSED;
}

/** The operation's fields as operationFieldsSchema reads them, or null where it is left to the schema. */
export function readOperationFields(v: WireObject): OperationFields | null {
  const fields = {
    id: typeof v.id === "string" && isUuid(v.id) ? v.id.toLowerCase() : REFUSED,
    dateAdded: timestamp(v.dateAdded),
    dateUpdated: nullish(v.dateUpdated, timestamp),
    typeOperation: enumText(v.typeOperation, normaliseOperationType),
    status: enumText(v.status, normaliseOperationStatus),
    idTransactionMerchant: text(v.idTransactionMerchant),
    amountInitial: decimal(v.amountInitial, AMOUNT_DIGITS),
    amountRandomized: nullableDecimal(v.amountRandomized, AMOUNT_DIGITS),
    amount: decimal(v.amount, AMOUNT_DIGITS),
    amountComission: nullableDecimal(v.amountComission, AMOUNT_DIGITS),
    currency: text(v.currency),
    amountInCurrencyBalance: nullableDecimal(v.amountInCurrencyBalance, AMOUNT_DIGITS),
    amountComissionInCurrencyBalance: nullableDecimal(v.amountComissionInCurrencyBalance, AMOUNT_DIGITS),
    exchangeRate: nullableDecimal(v.exchangeRate, RATE_DIGITS),
    paymentDetailsData: nullish(v.paymentDetailsData, paymentDetails),
    linkPaymentForm: nullish(v.linkPaymentForm, text),
  };
  for (const key in fields) if (fields[key as keyof typeof fields] instanceof Refused) return null;
  return fields as { [K in keyof typeof fields]: Exclude<(typeof fields)[K], Refused> };
}
