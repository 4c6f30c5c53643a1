import "server-only";
import { isDeepStrictEqual } from "node:util";
import { getDb } from "@/lib/db";
import type { CreationIntent, Prisma } from "@/lib/generated/prisma/client";
import type { CreationKind } from "@/lib/generated/prisma/enums";
import { getLog } from "@/lib/log";
import { applySnapshot } from "@/lib/operations/mirror/apply-snapshot";
import {
  answerOfLookup,
  AnswerMismatchError,
  isInternalError,
  isRefusal,
  mismatchedFields,
  type Answer,
} from "@/lib/operations/mirror/creation-answer";
import {
  exhausted,
  OPEN,
  settledOutcome,
  stopped,
  whileClaimed,
  WAIT_FOR_OTHER_MS,
  WAIT_STEP_MS,
} from "@/lib/operations/mirror/creation-intent";
import type { PlatformClient } from "@/lib/platform/client";
import { isPlatformError, PlatformError, PlatformRequestError } from "@/lib/platform/errors";
import type {
  FullPaymentFormRequest,
  PayInRequest,
  PayOutRequest,
  PreparePaymentFormRequest,
} from "@/lib/platform/requests";
import type { Operation } from "@/lib/platform/schemas";
import { findOperationByMerchantId } from "@/lib/operations/mirror/find-by-merchant-id";
import { storableOrNull, storableText } from "@/lib/storable-text";
import { sleep } from "@/lib/time/sleep";

/** Stored with the intent as JSON: amounts and dates are strings, so a resend is byte-for-byte the same. */
type Stored<T> = Omit<T, "amount" | "clientDateCreated"> & { amount: string; clientDateCreated: string };
export type Creation =
  | { kind: "payIn"; request: Stored<PayInRequest> }
  | { kind: "payOut"; request: Stored<PayOutRequest> }
  | { kind: "formPrepare"; request: Stored<PreparePaymentFormRequest> }
  | { kind: "formFull"; request: Stored<FullPaymentFormRequest> };

/** Why an intent is still open, each told in its own words. */
export type PendingReason =
  /** no usable answer: the request may have reached the platform */
  | "answerLost"
  /** the platform's generic internalError: the operation may exist */
  | "internalError"
  /** an answer about another operation (id, type or amount): not believed, nothing recorded from it */
  | "answerMismatch"
  /** another caller is sending it right now */
  | "inProgress"
  /** no more resends (MAX_INTENT_AGE_MS, `gaveUpAt`): a person must find out whether it exists */
  | "stopped";

export type CreationOutcome =
  | {
      status: "created";
      operationId: string;
      traceID: string | null;
      linkPaymentForm: string | null;
      operation: Operation | null;
      /** True only for the call that confirmed the intent: the one that may hand out single-use details. */
      confirmedNow?: boolean;
    }
  | {
      status: "rejected";
      codeError: string | null;
      message: string;
      traceID: string | null;
      /** PlatformError.kind and the HTTP status of the refusal (null when not known): its words depend on
       * them (a refused token is kind `auth`, whatever the code). */
      kind?: string | null;
      httpStatus?: number | null;
      /** Set when Paydesk refused the request itself, before sending it (PlatformRequestError): the
       * field it named, or null. Only on the answer of the call that refused; the stored intent keeps the
       * refusal's text and no platform code. */
      refusedBeforeSending?: { field: string | null };
    }
  | { status: "pending"; message: string; traceID: string | null; reason?: PendingReason };

export class IdempotencyConflictError extends Error {
  override name = "IdempotencyConflictError";
}

type Platform = Pick<
  PlatformClient,
  | "createPayIn"
  | "createPayOut"
  | "preparePaymentForm"
  | "createFullPaymentForm"
  | "listOperations"
  | "getOperationsByMerchantIdDeprecated"
>;
type Context = { actorUserId?: string };

const RESENDS = 3;

async function send(platform: Platform, creation: Creation, context: Context): Promise<Answer> {
  const of = ({ operation, traceID }: { operation: Operation; traceID: string | null }): Answer => ({
    operation,
    operationId: operation.id,
    traceID,
    link: null,
    answered: operation,
  });
  switch (creation.kind) {
    case "payIn":
      return of(await platform.createPayIn(creation.request, context));
    case "payOut":
      return of(await platform.createPayOut(creation.request, context));
    case "formPrepare":
    case "formFull": {
      const { form, traceID } =
        creation.kind === "formPrepare"
          ? await platform.preparePaymentForm(creation.request, context)
          : await platform.createFullPaymentForm(creation.request, context);
      return {
        operation: form.operation,
        operationId: form.operation?.id ?? form.id,
        traceID,
        link: form.linkPaymentForm,
        // a minimal answer (link, id, status) is checked on whatever else it carries
        answered: form.operation ?? form.raw,
      };
    }
  }
}

function paymentMethodOf(creation: Creation): string | null {
  return "paymentMethod" in creation.request ? creation.request.paymentMethod : null;
}

/**
 * Creates a platform operation exactly once per idTransactionMerchant. The intent is stored before the
 * request is sent; a lost or ambiguous answer is resolved by sending the same request again and, on
 * duplicateIdentifier, by finding the operation the first attempt created. A new id is never invented.
 * One caller sends an id at a time (a claim on the intent); another waits for its outcome (up to a
 * minute, or not at all with `wait: false`) and never gets the operation itself: only the caller that
 * confirmed the intent may hand out what the answer carried once (a pay-in's details).
 */
export async function createOnce(
  platform: Platform,
  creation: Creation,
  context: Context = {},
  options: { resendDelayMs?: number; wait?: boolean } = {},
): Promise<CreationOutcome> {
  const db = getDb();
  const id = creation.request.idTransactionMerchant;
  const stored = JSON.parse(JSON.stringify(creation.request)) as Prisma.InputJsonObject;
  // INSERT ... ON CONFLICT DO NOTHING: concurrent calls with one id all end up reading the same intent.
  await db.creationIntent.createMany({
    data: [
      {
        idTransactionMerchant: id,
        kind: creation.kind as CreationKind,
        request: stored,
        createdById: context.actorUserId ?? null,
      },
    ],
    skipDuplicates: true,
  });
  const waitUntil = Date.now() + (options.wait === false ? 0 : WAIT_FOR_OTHER_MS);
  for (;;) {
    const intent = await db.creationIntent.findUniqueOrThrow({ where: { idTransactionMerchant: id } });
    if (intent.kind !== creation.kind || !isDeepStrictEqual(intent.request, stored)) {
      throw new IdempotencyConflictError(
        `idTransactionMerchant ${id} is already used by a different request.`,
      );
    }
    const settled = settledOutcome(intent);
    if (settled) return settled;
    const sent = await whileClaimed(id, () =>
      sendUntilKnown(platform, creation, context, options.resendDelayMs ?? 500),
    );
    if (sent) return sent.result;
    if (Date.now() >= waitUntil)
      return {
        status: "pending",
        reason: "inProgress",
        message: "Another request is sending it now; it will be checked again.",
        traceID: intent.lastTraceID,
      };
    await sleep(WAIT_STEP_MS);
  }
}

/**
 * Resends a pending intent (background job for intents whose answer was lost), without waiting for
 * another caller sending it. One older than MAX_INTENT_AGE_MS is not sent: it is marked given up
 * (`gaveUpAt`: the job no longer picks it up) and left to a person.
 */
export async function resolvePendingIntent(
  platform: Platform,
  idTransactionMerchant: string,
): Promise<CreationOutcome> {
  const db = getDb();
  const intent = await db.creationIntent.findUniqueOrThrow({ where: { idTransactionMerchant } });
  if (intent.state === "pending" && (intent.gaveUpAt || exhausted(intent))) {
    await db.creationIntent.updateMany({
      where: { idTransactionMerchant, state: "pending", gaveUpAt: null },
      data: { gaveUpAt: new Date() },
    });
    return stopped(intent, intent.lastMessage);
  }
  const creation = { kind: intent.kind, request: intent.request } as unknown as Creation;
  return createOnce(
    platform,
    creation,
    { actorUserId: intent.createdById ?? undefined },
    { resendDelayMs: 0, wait: false },
  );
}

/**
 * Settles or notes an open intent, only while it is still open: a caller whose claim outlived may find it
 * settled by another (or by a release without claims during a deploy), whose outcome then stands.
 */
async function writeIfOpen(
  id: string,
  data: Prisma.CreationIntentUpdateManyMutationInput,
): Promise<CreationOutcome | null> {
  const { count } = await getDb().creationIntent.updateMany({
    where: { idTransactionMerchant: id, ...OPEN },
    data,
  });
  if (count > 0) return null;
  return settledOutcome(
    await getDb().creationIntent.findUniqueOrThrow({ where: { idTransactionMerchant: id } }),
  );
}

async function sendUntilKnown(
  platform: Platform,
  creation: Creation,
  context: Context,
  delayMs: number,
): Promise<CreationOutcome> {
  const db = getDb();
  const id = creation.request.idTransactionMerchant;
  let last: Error | null = null;
  let intent: CreationIntent | null = null;
  for (let attempt = 0; attempt < RESENDS; attempt++) {
    if (attempt > 0) await sleep(delayMs * 2 ** (attempt - 1));
    intent = await db.creationIntent.update({
      where: { idTransactionMerchant: id },
      data: { attempts: { increment: 1 } },
    });
    const sentAt = new Date();
    try {
      return await confirm(creation, await send(platform, creation, context), sentAt);
    } catch (error) {
      if (!(error instanceof Error)) throw error;
      last = error;
      if (error instanceof AnswerMismatchError) continue;
      if (error instanceof PlatformRequestError) {
        // Refused locally, nothing was sent: sending it again cannot succeed, so the intent is settled
        // as rejected (no platform code, no trace) instead of staying pending for the background job.
        const message = storableText(error.message);
        const settled = await writeIfOpen(id, {
          state: "rejected",
          lastCodeError: null,
          lastMessage: message,
          lastTraceID: null,
          lastErrorKind: null,
          lastHttpStatus: null,
        });
        if (settled) return settled;
        return {
          status: "rejected",
          codeError: null,
          message,
          traceID: null,
          kind: null,
          httpStatus: null,
          refusedBeforeSending: { field: error.field },
        };
      }
      if (!isPlatformError(error)) throw error;
      if (error.codeError === "duplicateIdentifier") {
        // Our earlier attempt created it. If it cannot be found right now, the intent stays pending.
        const lookedUpAt = new Date();
        const found = await findOperationByMerchantId(platform, id, context).catch((lookup: unknown) => {
          if (!isPlatformError(lookup)) throw lookup;
          last = lookup;
          return null;
        });
        if (!found) continue;
        const answer = { ...answerOfLookup(found.operation), traceID: error.traceID };
        try {
          return await confirm(creation, answer, lookedUpAt);
        } catch (mismatch) {
          if (!(mismatch instanceof AnswerMismatchError)) throw mismatch;
          last = mismatch;
          continue;
        }
      }
      if (isRefusal(error)) {
        const refusal = {
          codeError: storableOrNull(error.codeError),
          message: storableText(error.platformMessage ?? error.message),
          traceID: storableOrNull(error.traceID),
          kind: error.kind,
          httpStatus: error.httpStatus,
        };
        const settled = await writeIfOpen(id, {
          state: "rejected",
          lastCodeError: refusal.codeError,
          lastMessage: refusal.message,
          lastTraceID: refusal.traceID,
          lastErrorKind: refusal.kind,
          lastHttpStatus: refusal.httpStatus,
        });
        return settled ?? { status: "rejected", ...refusal };
      }
    }
  }
  return keepOpen(id, last, intent);
}

/** A round of sends ended without a definite answer: the intent stays open with what was last heard. */
async function keepOpen(
  id: string,
  last: Error | null,
  sent: CreationIntent | null,
): Promise<CreationOutcome> {
  const platformError = last instanceof PlatformError ? last : null;
  const traceID = storableOrNull(
    platformError ? platformError.traceID : last instanceof AnswerMismatchError ? last.traceID : null,
  );
  const message = storableOrNull(last?.message ?? null);
  const stop = sent !== null && exhausted(sent);
  const settled = await writeIfOpen(id, {
    lastMessage: message,
    lastTraceID: traceID,
    lastCodeError: storableOrNull(platformError?.codeError ?? null),
    lastErrorKind: platformError?.kind ?? null,
    lastHttpStatus: platformError?.httpStatus ?? null,
    ...(stop ? { gaveUpAt: new Date() } : {}),
  });
  if (settled) return settled;
  if (stop) return stopped(sent, message);
  const shown = message ?? "unknown";
  if (last instanceof AnswerMismatchError)
    return {
      status: "pending",
      reason: "answerMismatch",
      message: `The platform's answer was not about this request (${shown}); it will be checked again.`,
      traceID,
    };
  if (platformError && isInternalError(platformError))
    return {
      status: "pending",
      reason: "internalError",
      message: `The platform answered internalError (${shown}): the operation may exist; the same request will be sent again.`,
      traceID,
    };
  return {
    status: "pending",
    reason: "answerLost",
    message: `The platform's answer was lost (${shown}); it will be checked again.`,
    traceID,
  };
}

async function confirm(
  creation: Creation,
  answer: Answer,
  /** When the request that answered was sent: the snapshot's place among the others (apply-snapshot.ts). */
  sentAt: Date,
): Promise<CreationOutcome> {
  const id = creation.request.idTransactionMerchant;
  const wrong = mismatchedFields(creation, answer.answered);
  if (wrong.length > 0) {
    getLog().error(
      {
        idTransactionMerchant: id,
        kind: creation.kind,
        fields: wrong,
        traceID: answer.traceID,
        answered: {
          idTransactionMerchant: answer.answered.idTransactionMerchant,
          typeOperation: answer.answered.typeOperation,
          amountInitial: answer.answered.amountInitial?.toString() ?? null,
          operationId: answer.operationId,
        },
      },
      "the platform's creation answer does not match the request",
    );
    throw new AnswerMismatchError(wrong, answer.traceID);
  }
  const { operation, operationId } = answer;
  if (operation)
    await applySnapshot(operation, "creation", {
      sourceRef: answer.traceID,
      paymentMethod: paymentMethodOf(creation),
      receivedAt: sentAt,
    });
  const traceID = storableOrNull(answer.traceID);
  const link = storableOrNull(answer.link);
  // Conditional: if another caller settled it meanwhile (its claim outlived), that caller answers for it.
  const { count } = await getDb().creationIntent.updateMany({
    where: { idTransactionMerchant: id, ...OPEN },
    data: {
      state: "confirmed",
      operationId,
      lastTraceID: traceID,
      lastCodeError: null,
      lastMessage: null,
      lastErrorKind: null,
      lastHttpStatus: null,
      ...(link ? { linkPaymentForm: link } : {}),
    },
  });
  const intent = await getDb().creationIntent.findUniqueOrThrow({ where: { idTransactionMerchant: id } });
  const settled = count === 0 ? settledOutcome(intent) : null;
  if (settled) return settled;
  return {
    status: "created",
    operationId: operationId ?? "",
    traceID,
    // found by a look-up after a form's answer without its id: the link that answer carried
    linkPaymentForm: intent.linkPaymentForm,
    operation,
    confirmedNow: true,
  };
}
