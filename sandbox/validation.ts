import { isIP } from "node:net";
import { parseIsoDate } from "./iso-date";
import { numberText } from "./json";
import { PAY_IN_ONLY_METHODS, canonicalMethod, detailsKind, monoBankAlias } from "./methods";
import { checkAmountText } from "./money";
import type { ClientData, FormUrls } from "./types";

/**
 * Validation of request bodies (invalidRequestParameters, the message names the field).
 * Fields are checked in the order of the spec's tables; the first problem is reported.
 */

export class FieldError extends Error {
  constructor(
    readonly field: string,
    reason: string,
  ) {
    super(`Field '${field}': ${reason}`);
  }
}

export type CreationKind = "payin" | "payout" | "prepare" | "full";

export interface CreationRequest {
  kind: CreationKind;
  paymentMethod: string | null;
  idTransactionMerchant: string;
  amount: string;
  client: ClientData;
  clientDateCreatedMs: number;
  webHook: string | null;
  form: FormUrls;
  recipient: { number: string; bankName: string; nameMediator: string } | null;
}

type Body = Record<string, unknown>;

export function asObject(body: unknown): Body {
  if (body === null || typeof body !== "object" || Array.isArray(body))
    throw new FieldError("$", "request body must be a JSON object");
  return body as Body;
}

function requiredString(body: Body, field: string, label = field): string {
  const value = body[field];
  if (value === undefined || value === null) throw new FieldError(label, "is required");
  if (typeof value !== "string") throw new FieldError(label, "must be a string");
  return value;
}

function nonEmptyString(body: Body, field: string, maxLength = 255): string {
  const value = requiredString(body, field);
  if (value.trim() === "") throw new FieldError(field, "must not be empty");
  if (value.length > maxLength) throw new FieldError(field, `must be at most ${maxLength} characters`);
  return value;
}

function optionalString(body: Body, field: string, label: string): string | null {
  const value = body[field];
  if (value === undefined || value === null) return null;
  if (typeof value !== "string") throw new FieldError(label, "must be a string");
  return value;
}

export function readAmount(body: Body, field: string): string {
  const value = body[field];
  if (value === undefined || value === null) throw new FieldError(field, "is required");
  const text = numberText(value);
  if (text === undefined) throw new FieldError(field, "must be a JSON number (not a string)");
  const checked = checkAmountText(text);
  if (!checked.ok)
    throw new FieldError(
      field,
      `must be a positive number with at most 4 decimal places (${checked.reason})`,
    );
  return checked.value;
}

function readMethod(body: Body, kind: CreationKind): string {
  const raw = nonEmptyString(body, "paymentMethod", 64);
  const method = canonicalMethod(raw);
  if (method === undefined) throw new FieldError("paymentMethod", `unknown payment method '${raw}'`);
  if (kind === "payout" && PAY_IN_ONLY_METHODS.has(method))
    throw new FieldError("paymentMethod", `'${method}' is not applicable to pay-out`);
  return method;
}

function readClient(body: Body): { client: ClientData; clientDateCreatedMs: number } {
  const clientID = requiredString(body, "clientID");
  const clientIP = requiredString(body, "clientIP");
  if (isIP(clientIP) === 0) throw new FieldError("clientIP", "must be an IPv4 or IPv6 address");
  const clientDateCreated = requiredString(body, "clientDateCreated");
  const clientDateCreatedMs = parseIsoDate(clientDateCreated);
  if (clientDateCreatedMs === undefined)
    throw new FieldError("clientDateCreated", "must be an ISO-8601 date or date-time");
  return { client: { clientID, clientIP, clientDateCreated }, clientDateCreatedMs };
}

function readIntegration(body: Body, kind: CreationKind): { webHook: string | null; form: FormUrls } {
  const raw = body.integrationMerhcnatData;
  const form: FormUrls = { redirectGeneralURL: null, redirectSuccessURL: null, redirectFailURL: null };
  if (raw === undefined || raw === null) return { webHook: null, form };
  if (typeof raw !== "object" || Array.isArray(raw))
    throw new FieldError("integrationMerhcnatData", "must be an object");
  const data = raw as Body;
  const webHook = optionalString(data, "webHook", "integrationMerhcnatData.webHook");
  if (kind === "prepare" || kind === "full") {
    form.redirectGeneralURL = optionalString(
      data,
      "redirectGeneralURL",
      "integrationMerhcnatData.redirectGeneralURL",
    );
    form.redirectSuccessURL = optionalString(
      data,
      "redirectSuccessURL",
      "integrationMerhcnatData.redirectSuccessURL",
    );
    form.redirectFailURL = optionalString(data, "redirectFailURL", "integrationMerhcnatData.redirectFailURL");
  }
  return { webHook, form };
}

const RECIPIENT_PATTERNS = {
  card: { pattern: /^\d{16,19}$/, hint: "a card number of 16 to 19 digits" },
  phone: { pattern: /^\+?\d{11,15}$/, hint: "a phone number such as +79001234567" },
  account: { pattern: /^\d{20}$/, hint: "an account number of 20 digits" },
};

function readRecipientNumber(body: Body, method: string): string {
  const number = nonEmptyString(body, "number", 64);
  const kinds =
    monoBankAlias(method) !== undefined ? (["card", "phone"] as const) : ([detailsKind(method)] as const);
  if (!kinds.some((kind) => RECIPIENT_PATTERNS[kind].pattern.test(number))) {
    throw new FieldError(
      "number",
      `must be ${kinds.map((kind) => RECIPIENT_PATTERNS[kind].hint).join(" or ")} for method '${method}'`,
    );
  }
  return number;
}

function readNameMediator(body: Body): string {
  if (!("nameMediator" in body)) return "";
  const value = body.nameMediator;
  if (value === null)
    throw new FieldError("nameMediator", "must not be null (send an empty string or leave it out)");
  if (typeof value !== "string") throw new FieldError("nameMediator", "must be a string");
  return value;
}

export function validateCreation(rawBody: unknown, kind: CreationKind): CreationRequest {
  const body = asObject(rawBody);
  const paymentMethod = kind === "prepare" ? null : readMethod(body, kind);
  const idTransactionMerchant = nonEmptyString(body, "idTransactionMerchant");
  const amount = readAmount(body, "amount");
  const { client, clientDateCreatedMs } = readClient(body);
  const { webHook, form } = readIntegration(body, kind);
  let recipient: CreationRequest["recipient"] = null;
  if (kind === "payout" && paymentMethod !== null) {
    const number = readRecipientNumber(body, paymentMethod);
    const bankName = nonEmptyString(body, "bankName");
    recipient = { number, bankName, nameMediator: readNameMediator(body) };
  }
  return {
    kind,
    paymentMethod,
    idTransactionMerchant,
    amount,
    client,
    clientDateCreatedMs,
    webHook,
    form,
    recipient,
  };
}

function readCount(body: Body, field: string): number {
  const value = body[field];
  if (value === undefined || value === null) throw new FieldError(field, "is required");
  const text = numberText(value);
  if (text === undefined || !/^\d+$/.test(text))
    throw new FieldError(field, "must be a non-negative integer");
  if (text.length > 9) throw new FieldError(field, "is too large");
  return Number(text);
}

export function validateListRequest(rawBody: unknown, maxTake: number): { skip: number; take: number } {
  const body = asObject(rawBody);
  const skip = readCount(body, "skip");
  const take = readCount(body, "take");
  if (take < 1) throw new FieldError("take", "must be at least 1");
  if (take > maxTake) throw new FieldError("take", `must be at most ${maxTake}`);
  return { skip, take };
}

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return UUID_PATTERN.test(value);
}
