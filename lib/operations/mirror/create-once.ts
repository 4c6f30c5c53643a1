import "server-only";
import { isDeepStrictEqual } from "node:util";
import { getDb } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { CreationKind } from "@/lib/generated/prisma/enums";
import { applySnapshot } from "@/lib/operations/mirror/apply-snapshot";
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

export type CreationOutcome =
  | {
      status: "created";
      operationId: string;
      traceID: string | null;
      linkPaymentForm: string | null;
      operation: Operation | null;
    }
  | {
      status: "rejected";
      codeError: string | null;
      message: string;
      traceID: string | null;
      /** Set when Paydesk refused the request itself, before sending it (PlatformRequestError): the
       * field it named, or null. Only on the answer of the call that refused; the stored intent keeps the
       * refusal's text and no platform code. */
      refusedBeforeSending?: { field: string | null };
    }
  | { status: "pending"; message: string; traceID: string | null };

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
async function send(platform: Platform, creation: Creation, context: Context) {
  switch (creation.kind) {
    case "payIn": {
      const { operation, traceID } = await platform.createPayIn(creation.request, context);
      return { operation, traceID, link: null, operationId: operation.id };
    }
    case "payOut": {
      const { operation, traceID } = await platform.createPayOut(creation.request, context);
      return { operation, traceID, link: null, operationId: operation.id };
    }
    case "formPrepare":
    case "formFull": {
      const { form, traceID } =
        creation.kind === "formPrepare"
          ? await platform.preparePaymentForm(creation.request, context)
          : await platform.createFullPaymentForm(creation.request, context);
      return {
        operation: form.operation,
        traceID,
        link: form.linkPaymentForm,
        operationId: form.operation?.id ?? form.id,
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
 */
export async function createOnce(
  platform: Platform,
  creation: Creation,
  context: Context = {},
  options: { resendDelayMs?: number } = {},
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
  const intent = await db.creationIntent.findUniqueOrThrow({ where: { idTransactionMerchant: id } });
  if (intent.kind !== creation.kind || !isDeepStrictEqual(intent.request, stored)) {
    throw new IdempotencyConflictError(`idTransactionMerchant ${id} is already used by a different request.`);
  }
  if (intent.state === "confirmed" && intent.operationId) {
    return {
      status: "created",
      operationId: intent.operationId,
      traceID: intent.lastTraceID,
      linkPaymentForm: null,
      operation: null,
    };
  }
  if (intent.state === "rejected") {
    return {
      status: "rejected",
      codeError: intent.lastCodeError,
      message: intent.lastMessage ?? "rejected",
      traceID: intent.lastTraceID,
    };
  }
  return sendUntilKnown(platform, creation, context, options.resendDelayMs ?? 500);
}

/** Resends a pending intent (background job for intents whose answer was lost). */
export async function resolvePendingIntent(
  platform: Platform,
  idTransactionMerchant: string,
): Promise<CreationOutcome> {
  const intent = await getDb().creationIntent.findUniqueOrThrow({ where: { idTransactionMerchant } });
  const creation = { kind: intent.kind, request: intent.request } as unknown as Creation;
  return createOnce(
    platform,
    creation,
    { actorUserId: intent.createdById ?? undefined },
    { resendDelayMs: 0 },
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
  let last: PlatformError | Error | null = null;
  for (let attempt = 0; attempt < RESENDS; attempt++) {
    if (attempt > 0) await sleep(delayMs * 2 ** (attempt - 1));
    await db.creationIntent.update({
      where: { idTransactionMerchant: id },
      data: { attempts: { increment: 1 } },
    });
    const sentAt = new Date();
    try {
      const sent = await send(platform, creation, context);
      return await confirm(creation, sent.operation, sent.operationId, sent.traceID, sent.link, sentAt);
    } catch (error) {
      if (!(error instanceof Error)) throw error;
      last = error;
      if (error instanceof PlatformRequestError) {
        // Refused locally, nothing was sent: sending it again cannot succeed, so the intent is settled
        // as rejected (no platform code, no trace) instead of staying pending for the background job.
        const message = storableText(error.message);
        await db.creationIntent.update({
          where: { idTransactionMerchant: id },
          data: { state: "rejected", lastCodeError: null, lastMessage: message, lastTraceID: null },
        });
        return {
          status: "rejected",
          codeError: null,
          message,
          traceID: null,
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
        if (found)
          return confirm(creation, found.operation, found.operation.id, error.traceID, null, lookedUpAt);
        continue;
      }
      if (error.kind === "business" || error.kind === "auth") {
        const refusal = {
          codeError: storableOrNull(error.codeError),
          message: storableText(error.platformMessage ?? error.message),
          traceID: storableOrNull(error.traceID),
        };
        await db.creationIntent.update({
          where: { idTransactionMerchant: id },
          data: {
            state: "rejected",
            lastCodeError: refusal.codeError,
            lastMessage: refusal.message,
            lastTraceID: refusal.traceID,
          },
        });
        return { status: "rejected", ...refusal };
      }
    }
  }
  const traceID = storableOrNull(last instanceof PlatformError ? last.traceID : null);
  const message = storableOrNull(last?.message ?? null);
  await db.creationIntent.update({
    where: { idTransactionMerchant: id },
    data: {
      lastMessage: message,
      lastTraceID: traceID,
      lastCodeError: storableOrNull(last instanceof PlatformError ? last.codeError : null),
    },
  });
  return {
    status: "pending",
    message: `The platform's answer was lost (${message ?? "unknown"}); it will be checked again.`,
    traceID,
  };
}

async function confirm(
  creation: Creation,
  operation: Operation | null,
  operationId: string | null,
  traceID: string | null,
  link: string | null,
  /** When the request that answered was sent: the snapshot's place among the others (apply-snapshot.ts). */
  sentAt: Date,
): Promise<CreationOutcome> {
  const db = getDb();
  if (operation)
    await applySnapshot(operation, "creation", {
      sourceRef: traceID,
      paymentMethod: paymentMethodOf(creation),
      receivedAt: sentAt,
    });
  const trace = storableOrNull(traceID);
  await db.creationIntent.update({
    where: { idTransactionMerchant: creation.request.idTransactionMerchant },
    data: { state: "confirmed", operationId, lastTraceID: trace, lastCodeError: null, lastMessage: null },
  });
  return {
    status: "created",
    operationId: operationId ?? "",
    traceID: trace,
    linkPaymentForm: link,
    operation,
  };
}
