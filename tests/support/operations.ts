// Builds platform operation snapshots the way the client decodes them from the wire.
import { randomUUID } from "node:crypto";
import { decodeOperation, type Operation } from "@/lib/platform/schemas";
import { LosslessNumber, parseWireJson, stringifyWire, type WireValue } from "@/lib/platform/wire";

/** An operation's amounts: JSON numbers on the wire, their exact text in `raw`. */
export const AMOUNT_FIELDS = [
  "amountInitial",
  "amountRandomized",
  "amount",
  "amountComission",
  "amountInCurrencyBalance",
  "amountComissionInCurrencyBalance",
  "exchangeRate",
] as const;
const amountFields: ReadonlySet<string> = new Set(AMOUNT_FIELDS);

/** The operation as the platform's JSON: `raw` with its amounts written back as numbers, digits unchanged. */
export function wireJsonOf(op: Operation): string {
  const wire: { [key: string]: WireValue } = {};
  for (const [key, value] of Object.entries(op.raw))
    wire[key] = amountFields.has(key) && typeof value === "string" ? new LosslessNumber(value) : value;
  return stringifyWire(wire);
}

export type SnapshotInput = {
  id?: string;
  status?: string;
  dateAdded?: string;
  dateUpdated?: string;
  typeOperation?: "payIn" | "payOut";
  amount?: string;
  /** The ledger's amounts (default 15.7 and 0.4714). */
  amountInCurrencyBalance?: string;
  amountComissionInCurrencyBalance?: string;
  idTransactionMerchant?: string;
};

/** A spec-shaped operation; amounts are written into the JSON text as numbers, exactly as given. */
export function snapshot(input: SnapshotInput = {}): Operation {
  const amount = input.amount ?? "1500.5";
  const payIn = (input.typeOperation ?? "payIn") === "payIn";
  const details = payIn
    ? `{"paymentMethod":"toCard","bankName":"Sberbank","nameMediator":"Ivan I.","number":"4276000000000001","numberAdditional":null,"qRcode":null}`
    : "null";
  const id = input.id ?? randomUUID();
  const text = `{"id":"${id}","dateAdded":"${input.dateAdded ?? "2026-11-20T10:00:00.000Z"}",
    "dateUpdated":"${input.dateUpdated ?? input.dateAdded ?? "2026-11-20T10:00:00.000Z"}",
    "typeOperation":"${input.typeOperation ?? "payIn"}","status":"${input.status ?? "created"}",
    "idTransactionMerchant":"${input.idTransactionMerchant ?? `order-${id}`}",
    "amountInitial":${amount},"amountRandomized":${amount},"amount":${amount},"amountComission":45.015,
    "currency":"RUB","amountInCurrencyBalance":${input.amountInCurrencyBalance ?? "15.7"},"amountComissionInCurrencyBalance":${input.amountComissionInCurrencyBalance ?? "0.4714"},"exchangeRate":95.5,
    "paymentDetailsData":${details}}`;
  return decodeOperation(parseWireJson(text));
}
