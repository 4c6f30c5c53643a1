// readOperationFields reads the common wire forms of an operation without zod; operationFieldsSchema stays
// the definition. On any object, the fast reader either leaves it to the schema (null) or gives exactly
// what the schema gives; and on the forms the platform writes it does read them (the fast path is used).
import fc from "fast-check";
import { LosslessNumber } from "lossless-json";
import { describe, expect, test } from "vitest";
import { readOperationFields } from "@/lib/platform/operation-fields";
import { operationFieldsSchema } from "@/lib/platform/schemas";
import type { WireObject, WireValue } from "@/lib/platform/wire";

/** The object as the wire parser gives it: a key absent rather than undefined. */
const wireObject = (record: Record<string, WireValue | undefined>): WireObject =>
  Object.fromEntries(Object.entries(record).filter(([, v]) => v !== undefined)) as WireObject;

const digits = (minLength: number, maxLength: number) =>
  fc.string({ unit: fc.constantFrom(..."0123456789"), minLength, maxLength });
const plainDecimal = fc
  .tuple(fc.boolean(), digits(1, 24), fc.option(digits(1, 30), { nil: undefined }))
  .map(([minus, int, frac]) => `${minus ? "-" : ""}${int}${frac === undefined ? "" : `.${frac}`}`);
const numberText = fc.oneof(
  plainDecimal,
  fc.constantFrom("1e5", "1E+5", "-2.5e-3", "0", "-0", "00", "1.", ".5", "+1", "NaN", " 1", "1 ", ""),
);
/** A JSON number as the wire parser gives it, or the same text as a string, or something else. */
const amountValue: fc.Arbitrary<WireValue | undefined> = fc.oneof(
  numberText.map((text): WireValue => {
    try {
      return new LosslessNumber(text);
    } catch {
      return text;
    }
  }),
  numberText,
  fc.constantFrom<WireValue | undefined>(undefined, null, true, [], {}),
);

const isoTimestamp = fc
  .date({ min: new Date(Date.UTC(-1000, 0, 1)), max: new Date(Date.UTC(12000, 0, 1)), noInvalidDate: true })
  .map((d) => d.toISOString());
const twoDigits = digits(2, 2);
const timestampValue: fc.Arbitrary<WireValue | undefined> = fc.oneof(
  isoTimestamp,
  // Any digits in the ISO layout: month 13, day 31 of a short month, hour 24, a 60th second...
  fc
    .tuple(digits(4, 4), twoDigits, twoDigits, twoDigits, twoDigits, twoDigits, digits(3, 3))
    .map(([y, mo, d, h, mi, s, ms]) => `${y}-${mo}-${d}T${h}:${mi}:${s}.${ms}Z`),
  isoTimestamp.map((t) => t.replace("Z", "1234Z")),
  isoTimestamp.map((t) => t.replace(".", ",")),
  isoTimestamp.map((t) => t.toLowerCase()),
  isoTimestamp.map((t) => t.replace("Z", "+03:00")),
  isoTimestamp.map((t) => t.slice(0, 19)),
  isoTimestamp.map((t) => ` ${t}`),
  isoTimestamp.map((t) => t.replace(/\d/, "x")),
  fc.constantFrom<WireValue | undefined>(undefined, null, "", new LosslessNumber("1700000000000")),
);

const textValue: fc.Arbitrary<WireValue | undefined> = fc.oneof(
  fc.string(),
  fc.constantFrom<WireValue | undefined>(undefined, null, new LosslessNumber("1"), false, ["a"]),
);
const oneOfTexts = (...texts: string[]) => fc.oneof(fc.constantFrom(...texts), textValue);

const idValue = fc.oneof(
  fc.uuid(),
  fc.uuid().map((u) => u.toUpperCase()),
  fc.uuid().map((u) => `${u} `),
  fc.uuid().map((u) => u.replace(/-/g, "")),
  textValue,
);

const detailsValue: fc.Arbitrary<WireValue | undefined> = fc.oneof(
  fc
    .record(
      {
        paymentMethod: oneOfTexts("sbp", "SBP", "toCard", "sber_sber", "newMethod"),
        bankName: textValue,
        nameMediator: textValue,
        number: textValue,
        numberAdditional: fc.oneof(textValue, amountValue),
        qRcode: fc.oneof(textValue, fc.constant<WireValue>({ nested: [new LosslessNumber("1.50")] })),
        extra: textValue,
      },
      { requiredKeys: [] },
    )
    .map(wireObject),
  fc.constantFrom<WireValue | undefined>(undefined, null, [], "details", new LosslessNumber("2")),
);

const validTimestamp = fc.oneof(
  isoTimestamp.filter((t) => /^\d{4}-/.test(t) && t >= "1000"),
  isoTimestamp,
);
const validAmount = plainDecimal
  .filter((t) => /^-?(0|[1-9]\d{0,18})(\.\d{1,28})?$/.test(t))
  .map((t) => new LosslessNumber(t));
const validDetails = fc.record({
  paymentMethod: fc.constantFrom("sbp", "SBP", "toCard", "newMethod"),
  bankName: fc.string(),
  nameMediator: fc.string(),
  number: fc.string(),
  numberAdditional: fc.constantFrom(null, "x"),
  qRcode: fc.constantFrom(null, "data:image/png;base64,AAAA"),
});

/** Per field: a form the platform writes, and any value (other forms the schema takes, or refuses). */
const fields: Record<string, { common: fc.Arbitrary<WireValue>; any: fc.Arbitrary<WireValue | undefined> }> =
  {
    id: { common: fc.uuid(), any: idValue },
    dateAdded: { common: validTimestamp, any: timestampValue },
    dateUpdated: { common: validTimestamp, any: timestampValue },
    typeOperation: {
      common: fc.constantFrom("payIn", "payOut"),
      any: oneOfTexts("PAYIN", " payout", "refund"),
    },
    status: {
      common: fc.constantFrom("success", "failed", "in_progress", "created"),
      any: oneOfTexts("IN_PROGRESS", "inProgress", "Pending-Retry", "cancelled"),
    },
    idTransactionMerchant: { common: fc.string(), any: textValue },
    amountInitial: { common: validAmount, any: amountValue },
    amountRandomized: { common: validAmount, any: amountValue },
    amount: { common: validAmount, any: amountValue },
    amountComission: { common: validAmount, any: amountValue },
    currency: { common: fc.constantFrom("RUB", "NotSet"), any: textValue },
    amountInCurrencyBalance: { common: validAmount, any: amountValue },
    amountComissionInCurrencyBalance: { common: validAmount, any: amountValue },
    exchangeRate: { common: validAmount, any: amountValue },
    paymentDetailsData: { common: fc.oneof(validDetails, fc.constant(null)), any: detailsValue },
    linkPaymentForm: { common: fc.constant(null), any: textValue },
    unknownField: { common: fc.string(), any: textValue },
  };
const names = Object.keys(fields);

/** An operation in the platform's forms with up to four fields changed to any value (or removed). */
const operationValue = fc
  .tuple(
    fc.record(Object.fromEntries(names.map((name) => [name, fields[name]!.common]))),
    fc.array(
      fc.constantFrom(...names).chain((name) => fields[name]!.any.map((value) => [name, value] as const)),
      { maxLength: 4 },
    ),
  )
  .map(([common, changes]) => ({ ...common, ...Object.fromEntries(changes) }));

describe("readOperationFields gives what operationFieldsSchema gives, or leaves it to the schema", () => {
  test("any mixture of accepted and refused fields", () => {
    let read = 0;
    fc.assert(
      fc.property(operationValue, (record) => {
        const value = wireObject(record);
        const fast = readOperationFields(value);
        if (fast === null) return;
        read++;
        const schema = operationFieldsSchema.safeParse(value);
        expect(schema.success).toBe(true);
        expect(fast).toEqual(schema.data);
      }),
      { numRuns: 5000 },
    );
    // The generator reaches the fast path often enough to test it, not once by chance.
    expect(read).toBeGreaterThan(500);
  });

  const platformForm = {
    id: "709817d6-078f-4d46-928c-9a3adbd29267",
    dateAdded: "2026-12-07T16:01:54.426Z",
    dateUpdated: "2026-12-07T16:15:34.325Z",
    typeOperation: "payIn",
    status: "success",
    idTransactionMerchant: "seed-00020000",
    amountInitial: new LosslessNumber("9490.55"),
    amountRandomized: new LosslessNumber("9490.55"),
    amount: new LosslessNumber("9490.55"),
    amountComission: new LosslessNumber("189.811"),
    currency: "RUB",
    amountInCurrencyBalance: new LosslessNumber("101.2649"),
    amountComissionInCurrencyBalance: new LosslessNumber("2.0253"),
    exchangeRate: new LosslessNumber("93.72"),
    paymentDetailsData: {
      paymentMethod: "sbp",
      bankName: "Сбербанк",
      nameMediator: "И. И.",
      number: "+79990001122",
      numberAdditional: null,
      qRcode: null,
    },
  } satisfies WireObject;

  test.each([
    ["a pay-in as the list gives it", platformForm],
    ["a pay-out without details", { ...platformForm, typeOperation: "payOut", paymentDetailsData: null }],
    ["no dateUpdated, no secondary amounts", { ...platformForm, dateUpdated: null, amountRandomized: null }],
    ["a payment form's link", { ...platformForm, linkPaymentForm: "https://pay.example/f/1" }],
    [
      "the platform's seven fractional digits, no method yet, randomisation off, NotSet",
      {
        ...platformForm,
        dateAdded: "2025-11-18T14:53:31.0796033Z",
        amountRandomized: new LosslessNumber("0"),
        currency: "NotSet",
        paymentDetailsData: {
          paymentMethod: null,
          bankName: null,
          nameMediator: null,
          number: null,
          numberAdditional: null,
          qRcode: null,
        },
      },
    ],
  ])("%s is read by the fast reader, as the schema reads it", (_name, value: WireObject) => {
    const fast = readOperationFields(value);
    expect(fast).not.toBeNull();
    expect(fast).toEqual(operationFieldsSchema.parse(value));
  });

  test.each([
    ["an amount in exponent notation", { amount: new LosslessNumber("1e5") }],
    ["an unknown status", { status: "cancelled" }],
    ["a timestamp of a day that does not exist", { dateAdded: "2025-02-30T10:00:00.000Z" }],
    ["details that are a list", { paymentDetailsData: [] }],
    ["details that are a number", { paymentDetailsData: new LosslessNumber("5") }],
    ["an id that is no UUID", { id: "not-a-uuid" }],
  ])("%s is left to the schema, which refuses it", (_name, change: WireObject) => {
    const value = { ...platformForm, ...change };
    expect(readOperationFields(value)).toBeNull();
    expect(operationFieldsSchema.safeParse(value).success).toBe(false);
  });
});
