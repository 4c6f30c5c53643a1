import { Decimal } from "@/lib/money/decimal";
import type { Operation } from "@/lib/platform/schemas";

// The amounts in the balance currency and the rate between the two.
const CONVERTED_FIELDS = [
  "amountInCurrencyBalance",
  "amountComissionInCurrencyBalance",
  "exchangeRate",
] as const;
const MONEY = [
  "amountInitial",
  "amountRandomized",
  "amount",
  "amountComission",
  "currency",
  ...CONVERTED_FIELDS,
] as const;
// The payment details (paymentDetailsData).
const DETAILS_FIELDS = [
  "paymentMethod",
  "detailsBankName",
  "detailsNameMediator",
  "detailsNumber",
  "detailsNumberAdditional",
  "detailsQrCode",
] as const;

/**
 * Every field the mirror copies from a platform snapshot, as comparable text: amounts rounded to their
 * column's scale (4 digits, 8 for the rate) in plain notation, timestamps as ISO text, JSON with sorted
 * keys. A snapshot's view leaves out what the snapshot does not say (a by-id read of a pay-in may omit
 * paymentDetailsData, pay-out reads carry no method, only payment-form answers carry the link), so an
 * absent value is never taken for a difference. `raw` is not compared: it is the snapshot as received.
 */
export const MIRRORED_FIELDS = [
  "status",
  "dateUpdated",
  "dateAdded",
  "typeOperation",
  "idTransactionMerchant",
  ...MONEY,
  ...DETAILS_FIELDS,
  "linkPaymentForm",
] as const;
export type MirroredField = (typeof MIRRORED_FIELDS)[number];
export type MirrorFields = Record<MirroredField, string | null>;

/** Amounts, currency and rate: a difference among them is an amount mismatch. */
export const MONEY_FIELDS: ReadonlySet<MirroredField> = new Set(MONEY);

/** What a webhook may change on its own; anything else it claims is confirmed by a read-back first. */
export const HINT_FIELDS: ReadonlySet<MirroredField> = new Set(["status", "dateUpdated"]);

/**
 * Fields that legitimately move as an operation goes on: the commission, converted amounts and rate
 * (set at completion, 0 for a failed pay-in) and the details (when the client picks a method on the
 * form). A recent status change on the platform explains a difference in these and nothing else.
 */
export const LIFECYCLE_FIELDS: ReadonlySet<MirroredField> = new Set([
  "status",
  "dateUpdated",
  "amountComission",
  ...CONVERTED_FIELDS,
  ...DETAILS_FIELDS,
]);

const AMOUNT_SCALE = 4;
const RATE_SCALE = 8;

/** An amount as the mirror stores it (NUMERIC(24,4), the rate NUMERIC(24,8)), in plain notation. */
export function comparableDecimal(value: Decimal | string | null, scale = AMOUNT_SCALE): string | null {
  if (value === null) return null;
  return new Decimal(value).toDecimalPlaces(scale).toFixed();
}

/** JSON text with object keys sorted, so a jsonb column and the wire compare equal. */
export function comparableJson(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  const sort = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(sort)
      : v !== null && typeof v === "object"
        ? Object.fromEntries(
            Object.entries(v)
              .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
              .map(([k, inner]) => [k, sort(inner)]),
          )
        : v;
  return JSON.stringify(sort(value));
}

/** What a snapshot says about each mirrored field; fields it does not carry are left out. */
export function fieldsOfSnapshot(op: Operation): Partial<MirrorFields> {
  const fields: Partial<MirrorFields> = {
    status: op.status,
    dateUpdated: op.dateUpdated?.toISOString() ?? null,
    dateAdded: op.dateAdded.toISOString(),
    typeOperation: op.typeOperation,
    idTransactionMerchant: op.idTransactionMerchant,
    amountInitial: comparableDecimal(op.amountInitial),
    amountRandomized: comparableDecimal(op.amountRandomized),
    amount: comparableDecimal(op.amount),
    amountComission: comparableDecimal(op.amountComission),
    currency: op.currency,
    amountInCurrencyBalance: comparableDecimal(op.amountInCurrencyBalance),
    amountComissionInCurrencyBalance: comparableDecimal(op.amountComissionInCurrencyBalance),
    exchangeRate: comparableDecimal(op.exchangeRate, RATE_SCALE),
  };
  const details = op.paymentDetailsData;
  if (details) {
    if (details.paymentMethod !== null) fields.paymentMethod = details.paymentMethod;
    fields.detailsBankName = details.bankName;
    fields.detailsNameMediator = details.nameMediator;
    fields.detailsNumber = details.number;
    fields.detailsNumberAdditional = comparableJson(details.numberAdditional);
    fields.detailsQrCode = comparableJson(details.qRcode);
  }
  if (op.linkPaymentForm !== null) fields.linkPaymentForm = op.linkPaymentForm;
  return fields;
}

/** The fields a snapshot carries with a value other than the mirror's, in MIRRORED_FIELDS order. */
export function differingFields(mirror: MirrorFields, snapshot: Partial<MirrorFields>): MirroredField[] {
  return MIRRORED_FIELDS.filter((f) => f in snapshot && snapshot[f] !== mirror[f]);
}

/** The named fields of a view, for a drift item's mirror and platform values. */
export function pickFields(fields: Partial<MirrorFields>, names: readonly MirroredField[]) {
  return Object.fromEntries(names.map((f) => [f, fields[f] ?? null])) as Partial<MirrorFields>;
}
