/**
 * Response schemas (zod 4) over lossless-parsed wire values: amounts become Decimal, timestamps Date
 * (ms) plus their original text, enums are normalised (case, `SBP` -> `sbp`). Unknown extra fields are
 * dropped from the typed object but kept in `raw` for storage.
 * A decoded object keeps nothing of the parsed wire value: holding it would keep every operation's
 * whole parsed tree alive as long as the operation, for the garbage collector to copy (measured on a
 * reconciliation: 0.6 s more of the client's CPU per 100,000 operations).
 */
import "server-only";
import { z } from "zod";
import type { Decimal } from "@/lib/money/decimal";
import { normalisePaymentMethod, type PaymentMethod } from "./payment-methods";
import { parsePlatformTimestamp } from "./timestamps";
import {
  AMOUNT_DIGITS,
  RATE_DIGITS,
  decimalFromWire,
  isWireObject,
  wireToRaw,
  type DecimalDigits,
  type RawJson,
  type WireValue,
} from "./wire";
import { normalisedText } from "./normalised-text";
import { readOperationFields, type OperationFields, type PaymentDetails } from "./operation-fields";
import { isUuid } from "@/lib/uuid";
import {
  normaliseOperationStatus,
  normaliseOperationType,
  type OperationStatus,
  type OperationType,
} from "./operation-kinds";

export {
  OPERATION_STATUSES,
  OPERATION_TYPES,
  normaliseOperationStatus,
  normaliseOperationType,
  type OperationStatus,
  type OperationType,
} from "./operation-kinds";

/** Thrown by the decode* functions; the client turns it into a PlatformError of kind "protocol". */
export class SchemaMismatchError extends Error {
  override readonly name = "SchemaMismatchError";
  constructor(
    readonly what: string,
    readonly issues: readonly z.core.$ZodIssue[],
  ) {
    super(`${what} does not match the expected shape: ${describeIssues(issues)}`);
  }
}

export function describeIssues(issues: readonly z.core.$ZodIssue[], max = 5): string {
  const parts = issues
    .slice(0, max)
    .map((i) => `${i.path.length ? i.path.join(".") : "(root)"}: ${i.message}`);
  if (issues.length > max) parts.push(`…and ${issues.length - max} more`);
  return parts.join("; ");
}

// ---- field schemas -------------------------------------------------------------------------------

// Amounts and rates: plain notation within the digits their columns hold (wire.ts, DecimalDigits).
const decimalField = (digits: DecimalDigits) =>
  z.unknown().transform((v, ctx): Decimal => {
    const d = decimalFromWire(v, digits);
    if (d) return d;
    ctx.addIssue({ code: "custom", message: "expected a decimal number" });
    return z.NEVER;
  });

const nullableDecimalField = (digits: DecimalDigits) =>
  z
    .unknown()
    .optional()
    .transform((v, ctx): Decimal | null => {
      if (v === undefined || v === null) return null;
      const d = decimalFromWire(v, digits);
      if (d) return d;
      ctx.addIssue({ code: "custom", message: "expected a decimal number or null" });
      return z.NEVER;
    });

const amount = decimalField(AMOUNT_DIGITS);
const nullableAmount = nullableDecimalField(AMOUNT_DIGITS);
const rate = decimalField(RATE_DIGITS);
const nullableRate = nullableDecimalField(RATE_DIGITS);

/** UUID text, lower-cased (the platform prints lower case; ids are compared as text downstream). */
export const platformIdSchema = z
  .string()
  .refine(isUuid, "expected a UUID")
  .transform((s) => s.toLowerCase());

const timestamp = z.string().transform((text, ctx) => {
  const date = parsePlatformTimestamp(text);
  if (date) return { date, text };
  ctx.addIssue({ code: "custom", message: "expected an ISO-8601 timestamp" });
  return z.NEVER;
});

const status = normalisedText(normaliseOperationStatus, "operation status");
const typeOperation = normalisedText(normaliseOperationType, "typeOperation");

/** Known methods are normalised; an unknown one is kept verbatim so a new method never breaks reads. */
const responsePaymentMethod = z
  .string()
  .transform((v): PaymentMethod | (string & {}) => normalisePaymentMethod(v) ?? v);

const nullableString = z
  .string()
  .nullish()
  .transform((v) => v ?? null);

const opaque = z
  .unknown()
  .optional()
  .transform((v) => (v === undefined ? null : wireToRaw(v as WireValue)));

// ---- resources -----------------------------------------------------------------------------------

const paymentDetailsSchema = z.object({
  paymentMethod: responsePaymentMethod.nullish().transform((v) => v ?? null),
  bankName: nullableString,
  nameMediator: nullableString,
  number: nullableString,
  numberAdditional: opaque,
  qRcode: opaque,
});

/**
 * The definition of an operation's fields. readOperationFields (operation-fields.ts) reads its common forms
 * without zod: a change here is made there too (tests/unit/platform/operation-fields.test.ts compares them).
 */
export const operationFieldsSchema = z.object({
  id: platformIdSchema,
  dateAdded: timestamp,
  dateUpdated: timestamp.nullish(),
  typeOperation,
  status,
  idTransactionMerchant: z.string(),
  amountInitial: amount,
  amountRandomized: nullableAmount,
  amount,
  amountComission: nullableAmount,
  currency: z.string(),
  amountInCurrencyBalance: nullableAmount,
  amountComissionInCurrencyBalance: nullableAmount,
  exchangeRate: nullableRate,
  // An object, not just anything zod's object check takes: a JSON number on the wire is a LosslessNumber
  // instance, which it took as details with every field null.
  paymentDetailsData: z
    .custom<Record<string, unknown>>(isWireObject, "expected an object")
    .pipe(paymentDetailsSchema)
    .nullish(),
  linkPaymentForm: z.string().nullish(),
});

/**
 * An operation as read from the platform. Amounts are exact Decimals; `null` for a secondary amount
 * means the field was absent or null on the wire (amountInitial and amount are always present).
 * `amountRandomized` may be 0 when randomisation is off: see `displayAmountInitial` in amounts.ts.
 */
export interface Operation {
  id: string;
  typeOperation: OperationType;
  status: OperationStatus;
  idTransactionMerchant: string;
  /** Millisecond precision (sub-ms digits truncated); the exact text is in `dateAddedText`. */
  dateAdded: Date;
  dateAddedText: string;
  dateUpdated: Date | null;
  dateUpdatedText: string | null;
  amountInitial: Decimal;
  amountRandomized: Decimal | null;
  amount: Decimal;
  amountComission: Decimal | null;
  /** As received, including `NotSet`/`NOTSET`. */
  currency: string;
  amountInCurrencyBalance: Decimal | null;
  amountComissionInCurrencyBalance: Decimal | null;
  exchangeRate: Decimal | null;
  /**
   * Pay-in details; null for pay-outs (absent or null on the wire) and when the wire says null.
   * Undefined when a pay-in comes without the key: a read back by id may omit it (wire notes), which
   * says nothing about the details.
   */
  paymentDetailsData: PaymentDetails | null | undefined;
  /** Only on payment-form responses. */
  linkPaymentForm: string | null;
  /** The operation object as received, numbers as exact strings: for a JSON column. */
  raw: { [key: string]: RawJson };
}

function safeParseOrThrow<S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw new SchemaMismatchError(what, result.error.issues);
  return result.data;
}

export function decodeOperation(value: WireValue, what = "operation"): Operation {
  if (!isWireObject(value))
    throw new SchemaMismatchError(what, [
      { code: "custom", path: [], message: "expected an object", input: value },
    ]);
  const f: OperationFields =
    readOperationFields(value) ?? safeParseOrThrow(operationFieldsSchema, value, what);
  return {
    id: f.id,
    typeOperation: f.typeOperation,
    status: f.status,
    idTransactionMerchant: f.idTransactionMerchant,
    dateAdded: f.dateAdded.date,
    dateAddedText: f.dateAdded.text,
    dateUpdated: f.dateUpdated?.date ?? null,
    dateUpdatedText: f.dateUpdated?.text ?? null,
    amountInitial: f.amountInitial,
    amountRandomized: f.amountRandomized,
    amount: f.amount,
    amountComission: f.amountComission,
    currency: f.currency,
    amountInCurrencyBalance: f.amountInCurrencyBalance,
    amountComissionInCurrencyBalance: f.amountComissionInCurrencyBalance,
    exchangeRate: f.exchangeRate,
    // A pay-out never has details, whether the key is absent or null; an absent key on a pay-in is kept
    // as undefined so the mirror keeps the details it has.
    paymentDetailsData:
      f.paymentDetailsData === undefined && f.typeOperation === "payIn"
        ? undefined
        : (f.paymentDetailsData ?? null),
    linkPaymentForm: f.linkPaymentForm ?? null,
    raw: wireToRaw(value) as { [key: string]: RawJson },
  };
}

/** An array of operations; `null` data reads as an empty list, a single object as a list of one. */
export function decodeOperationList(value: WireValue, what = "operation list"): Operation[] {
  if (value === null) return [];
  if (isWireObject(value)) return [decodeOperation(value, `${what}[0]`)];
  if (!Array.isArray(value))
    throw new SchemaMismatchError(what, [
      { code: "custom", path: [], message: "expected an array", input: value },
    ]);
  return value.map((item, i) => decodeOperation(item, `${what}[${i}]`));
}

/**
 * A list item the decoder refused. One such item must not fail its page: the list is where reconciliation
 * learns of everything, and the spec says its status list is not complete (a `cancelled` the decoder
 * does not know), so the item is kept for staff to look at and the others are read.
 */
export interface UnreadableOperation {
  /** The item's id when that much of it reads as a UUID (lower-cased), else null. */
  id: string | null;
  /** The decoder's words, field by field: `status: unknown operation status "cancelled"`. */
  reason: string;
  /** The top-level fields it refused (`status`, `amount`); empty when the item is no object at all. */
  fields: string[];
  /** The item as received, numbers as exact strings. */
  raw: RawJson;
}

export interface OperationListPage {
  operations: Operation[];
  unreadable: UnreadableOperation[];
}

function unreadableOperation(item: WireValue, error: SchemaMismatchError): UnreadableOperation {
  const id = isWireObject(item) ? platformIdSchema.safeParse(item.id) : null;
  const fields = new Set<string>();
  for (const issue of error.issues) if (issue.path.length > 0) fields.add(String(issue.path[0]));
  return {
    id: id?.success ? id.data : null,
    reason: describeIssues(error.issues),
    fields: [...fields],
    raw: wireToRaw(item),
  };
}

/**
 * A page of the operation list, item by item: an item that does not decode is set aside as unreadable
 * and the others are read. Only the page's shape (data neither an array, an object nor null) fails it.
 * `null` data reads as an empty page, a single object as a page of one. When every item decodes this
 * costs what decodeOperationList does: the try block is free until an item throws.
 */
export function decodeOperationPage(value: WireValue, what = "operation list"): OperationListPage {
  if (value === null) return { operations: [], unreadable: [] };
  const items = isWireObject(value) ? [value] : value;
  if (!Array.isArray(items))
    throw new SchemaMismatchError(what, [
      { code: "custom", path: [], message: "expected an array", input: value },
    ]);
  const operations: Operation[] = [];
  const unreadable: UnreadableOperation[] = [];
  for (let i = 0; i < items.length; i++) {
    const item = items[i] as WireValue;
    try {
      operations.push(decodeOperation(item, `${what}[${i}]`));
    } catch (e) {
      if (!(e instanceof SchemaMismatchError)) throw e;
      unreadable.push(unreadableOperation(item, e));
    }
  }
  return { operations, unreadable };
}

/**
 * Payment-form responses: the spec only promises `linkPaymentForm` and the status; deployments send the
 * whole operation. `operation` is set when the data is a complete operation.
 */
export interface PaymentFormResult {
  linkPaymentForm: string;
  id: string | null;
  status: OperationStatus | null;
  operation: Operation | null;
  raw: { [key: string]: RawJson };
}

const paymentFormSchema = z.object({
  linkPaymentForm: z.string().min(1),
  id: platformIdSchema.nullish(),
  status: status.nullish(),
});

export function decodePaymentForm(value: WireValue): PaymentFormResult {
  const f = safeParseOrThrow(paymentFormSchema, value, "payment form");
  let operation: Operation | null = null;
  try {
    operation = decodeOperation(value, "payment form operation");
  } catch (e) {
    if (!(e instanceof SchemaMismatchError)) throw e;
  }
  return {
    linkPaymentForm: f.linkPaymentForm,
    id: f.id ?? null,
    status: f.status ?? null,
    operation,
    raw: wireToRaw(value) as { [key: string]: RawJson },
  };
}

export const balanceRecordSchema = z.object({
  amountInCurrencyBalance: amount,
  currencyBalance: z.string(),
  amountInCurrencyPayment: amount,
  currencyPayment: z.string(),
  exchangeRate: rate,
});
export type BalanceRecord = z.output<typeof balanceRecordSchema>;

/** The spec returns one record; an array (several balances) is accepted too. */
export function decodeBalance(value: WireValue): BalanceRecord[] {
  const records = safeParseOrThrow(
    z.union([balanceRecordSchema.transform((r) => [r]), z.array(balanceRecordSchema)]),
    value,
    "balance",
  );
  if (records.length === 0)
    throw new SchemaMismatchError("balance", [
      { code: "custom", path: [], message: "empty balance list", input: value },
    ]);
  return records;
}

/** A bank directory entry; plain-string directories give `id: null`. */
export interface Bank {
  id: string | null;
  name: string;
}

const bankSchema = z.union([
  z
    .string()
    .min(1)
    .transform((name): Bank => ({ id: null, name })),
  z
    .object({
      id: z.string().nullish(),
      name: z.string().min(1).optional(),
      bankName: z.string().min(1).optional(),
    })
    .refine((b) => Boolean(b.name ?? b.bankName), "expected a bank name")
    .transform((b): Bank => ({ id: b.id ?? null, name: (b.name ?? b.bankName) as string })),
]);

export function decodeBanks(value: WireValue): Bank[] {
  return safeParseOrThrow(z.array(bankSchema), value ?? [], "bank list");
}
