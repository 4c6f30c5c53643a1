// Judging the platform's answer to a creation (createOnce, create-once.ts): is it about the operation asked
// for, and does an error settle the intent or leave it open.
import { Decimal } from "@/lib/money/decimal";
import type { PlatformError } from "@/lib/platform/errors";
import { TRY_LATER_STATUSES } from "@/lib/platform/explain";
import { normaliseOperationType, type Operation, type OperationType } from "@/lib/platform/schemas";
import { decimalFromWire } from "@/lib/platform/wire";
import type { Creation } from "@/lib/operations/mirror/create-once";

/** What an answer says about the operation; a field it does not carry is absent (or null). */
type Answered = { idTransactionMerchant?: unknown; typeOperation?: unknown; amountInitial?: unknown };
export type Answer = {
  operation: Operation | null;
  operationId: string | null;
  traceID: string | null;
  link: string | null;
  answered: Answered;
};

const EXPECTED_TYPE: Record<Creation["kind"], OperationType> = {
  payIn: "payIn",
  payOut: "payOut",
  formPrepare: "payIn",
  formFull: "payIn",
};

/** An answer whose operation is not the one asked for: nothing of it is recorded. */
export class AnswerMismatchError extends Error {
  override name = "AnswerMismatchError";
  constructor(
    readonly fields: string[],
    readonly traceID: string | null,
  ) {
    super(`the platform's answer is about another operation (${fields.join(", ")} differ from the request)`);
  }
}

/** The fields in which the answer contradicts the request: the same id, type and amount, as far as told. */
export function mismatchedFields(creation: Creation, answered: Answered): string[] {
  const { idTransactionMerchant, typeOperation, amountInitial } = answered;
  const wrong: string[] = [];
  if (idTransactionMerchant != null && idTransactionMerchant !== creation.request.idTransactionMerchant)
    wrong.push("idTransactionMerchant");
  if (
    typeOperation != null &&
    (typeof typeOperation !== "string" ||
      normaliseOperationType(typeOperation) !== EXPECTED_TYPE[creation.kind])
  )
    wrong.push("typeOperation");
  if (amountInitial != null) {
    const amount = amountInitial instanceof Decimal ? amountInitial : decimalFromWire(amountInitial);
    if (!amount?.equals(creation.request.amount)) wrong.push("amountInitial");
  }
  return wrong;
}

/** The generic internalError (either dialect, or as the envelope's status): the operation may exist. */
export function isInternalError(error: PlatformError): boolean {
  return [error.codeError, error.codeErrorClass, error.envelopeStatus].some(
    (v) => v?.trim().toLowerCase() === "internalerror",
  );
}

/**
 * A refusal that settles the intent (nothing was created): the token refused (AuthError, HTTP 401/403),
 * a business refusal other than internalError, or a body without an envelope that the server sent as a
 * refusal (HTTP 4xx, outcome known). Lost answers, timeouts and internalError leave it open.
 */
export function isRefusal(error: PlatformError): boolean {
  if (error.kind === "auth") return true;
  if (error.kind === "business") return !isInternalError(error);
  const status = error.httpStatus ?? 0;
  return (
    error.kind === "protocol" &&
    !error.outcomeUnknown &&
    status >= 400 &&
    status < 500 &&
    !TRY_LATER_STATUSES.has(status)
  );
}

export const answerOfLookup = (operation: Operation): Omit<Answer, "traceID"> => ({
  operation,
  operationId: operation.id,
  link: null,
  answered: operation,
});
