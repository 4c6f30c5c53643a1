import "server-only";
// Creation intents Paydesk stopped resending (`gaveUpAt`, creation-intent.ts): nobody knows whether their
// operation exists. The mirror learns of it later (a webhook, a reconciliation run); these settle them
// from it, list the rest for a person, and look one up on the platform when a person asks.
import { audit, type StaffActor } from "@/lib/audit/log";
import { translatorFor } from "@/lib/auth/translator";
import { getDb } from "@/lib/db";
import type { CreationKind, OperationType } from "@/lib/generated/prisma/enums";
import { createRateLimit } from "@/lib/http/rate-limit";
import { getLog } from "@/lib/log";
import { applySnapshot } from "@/lib/operations/mirror/apply-snapshot";
import { mismatchedFields } from "@/lib/operations/mirror/creation-answer";
import type { Creation } from "@/lib/operations/mirror/create-once";
import { findOperationByMerchantId } from "@/lib/operations/mirror/find-by-merchant-id";
import type { PlatformClient } from "@/lib/platform/client";
import { isPlatformError } from "@/lib/platform/errors";
import type { Operation } from "@/lib/platform/schemas";

/**
 * Confirms every given-up intent the mirror now answers: exactly one mirrored operation with its
 * idTransactionMerchant, of the type and amount asked for, that no other intent claims. One whose
 * mirrored operation differs stays open (listed, with the difference). Only given-up ones: a caller still
 * waiting for its answer must be the one that confirms (a pay-in's details are handed out once, to it).
 */
export async function settleGivenUpFromMirror(): Promise<
  { idTransactionMerchant: string; operationId: string }[]
> {
  const settled = await getDb().$queryRaw<{ idTransactionMerchant: string; operationId: string }[]>`
    UPDATE "CreationIntent" i
    SET state = 'confirmed', "operationId" = o.id, "lastCodeError" = NULL, "lastMessage" = NULL,
        "lastErrorKind" = NULL, "lastHttpStatus" = NULL, "updatedAt" = now()
    FROM "Operation" o
    WHERE i.state = 'pending' AND i."gaveUpAt" IS NOT NULL
      AND (i."sendingUntil" IS NULL OR i."sendingUntil" < now())
      AND o."idTransactionMerchant" = i."idTransactionMerchant"
      AND o."typeOperation"::text = CASE i.kind WHEN 'payOut' THEN 'payOut' ELSE 'payIn' END
      AND o."amountInitial" = CASE WHEN i.request->>'amount' ~ '^[0-9]{1,20}(\.[0-9]{1,4})?$'
                                   THEN (i.request->>'amount')::numeric END
      AND NOT EXISTS (SELECT 1 FROM "Operation" other
                      WHERE other."idTransactionMerchant" = i."idTransactionMerchant" AND other.id <> o.id)
      AND NOT EXISTS (SELECT 1 FROM "CreationIntent" c WHERE c."operationId" = o.id)
    RETURNING i."idTransactionMerchant", o.id::text AS "operationId"`;
  for (const row of settled) getLog().info(row, "given-up creation intent confirmed from the mirror");
  return settled;
}

export type GivenUpIntent = {
  idTransactionMerchant: string;
  kind: CreationKind;
  /** As the request stored it: a decimal string. */
  amount: string | null;
  createdAt: string;
  gaveUpAt: string;
  attempts: number;
  createdBy: string | null;
  lastTraceID: string | null;
  lastMessage: string | null;
  /** Operations the mirror holds with this idTransactionMerchant that do not answer it (type or amount). */
  mirrorDiffers: { operationId: string; typeOperation: OperationType; amountInitial: string }[];
};

/** The given-up intents still open, newest first (at most `limit`), and how many there are in all. */
export async function listGivenUpIntents(limit = 50): Promise<{ rows: GivenUpIntent[]; total: number }> {
  const db = getDb();
  const where = { state: "pending", gaveUpAt: { not: null } } as const;
  const [intents, total] = await Promise.all([
    db.creationIntent.findMany({
      where,
      orderBy: [{ gaveUpAt: "desc" }, { idTransactionMerchant: "asc" }],
      take: limit,
      select: {
        idTransactionMerchant: true,
        kind: true,
        request: true,
        createdAt: true,
        gaveUpAt: true,
        attempts: true,
        lastTraceID: true,
        lastMessage: true,
        createdBy: { select: { email: true } },
      },
    }),
    db.creationIntent.count({ where }),
  ]);
  const mirrored = await db.operation.findMany({
    where: { idTransactionMerchant: { in: intents.map((i) => i.idTransactionMerchant) } },
    select: { id: true, idTransactionMerchant: true, typeOperation: true, amountInitial: true },
  });
  return {
    total,
    rows: intents.map((i) => ({
      idTransactionMerchant: i.idTransactionMerchant,
      kind: i.kind,
      amount: amountOf(i.request),
      createdAt: i.createdAt.toISOString(),
      gaveUpAt: (i.gaveUpAt ?? i.createdAt).toISOString(),
      attempts: i.attempts,
      createdBy: i.createdBy?.email ?? null,
      lastTraceID: i.lastTraceID,
      lastMessage: i.lastMessage,
      mirrorDiffers: mirrored
        .filter((o) => o.idTransactionMerchant === i.idTransactionMerchant)
        .map((o) => ({
          operationId: o.id,
          typeOperation: o.typeOperation,
          amountInitial: o.amountInitial.toFixed(),
        })),
    })),
  };
}

function amountOf(request: unknown): string | null {
  if (typeof request !== "object" || request === null || Array.isArray(request)) return null;
  const amount = (request as Record<string, unknown>).amount;
  return typeof amount === "string" ? amount : null;
}

export const LOOK_UPS_PER_MINUTE = 5;
/** Per user, per process: a look-up reads up to 20 pages of the platform's operations. */
export const lookUpRateLimit = createRateLimit({ limit: LOOK_UPS_PER_MINUTE, windowMs: 60_000 });

export type LookUpResult =
  | {
      ok: true;
      outcome: "confirmed" | "differs" | "notConfirmed" | "notFound";
      operationId: string | null;
      message: string;
    }
  | { ok: false; code: "notGivenUp" | "unavailable" | "rate_limited"; message: string };

/**
 * A person's look-up of a given-up intent on the platform (by its idTransactionMerchant; nothing is sent
 * again): the operation found is mirrored and, when it answers the request, confirms the intent (a pay-out
 * then settles as submitted with the next minute's job). Audited, whatever it found.
 */
export async function lookUpGivenUpIntent(
  platform: Pick<PlatformClient, "listOperations" | "getOperationsByMerchantIdDeprecated">,
  actor: StaffActor,
  idTransactionMerchant: string,
): Promise<LookUpResult> {
  const t = await translatorFor("reconciliation");
  if (!lookUpRateLimit.take(actor.id)) {
    return {
      ok: false,
      code: "rate_limited",
      message: t("unanswered.tooMany", { limit: LOOK_UPS_PER_MINUTE }),
    };
  }
  const db = getDb();
  const intent = await db.creationIntent.findUnique({
    where: { idTransactionMerchant },
    select: { state: true, gaveUpAt: true, kind: true, request: true },
  });
  if (intent?.state !== "pending" || !intent.gaveUpAt)
    return { ok: false, code: "notGivenUp", message: t("unanswered.notGivenUp") };
  // Audited whatever it found, a failed look-up too: the platform was asked.
  const record = (outcome: string, operationId: string | null) =>
    db.$transaction((tx) =>
      audit(tx, actor, {
        action: "creation.lookUp",
        targetType: "creationIntent",
        targetId: idTransactionMerchant,
        after: { outcome, operationId },
      }),
    );
  let found: Awaited<ReturnType<typeof findOperationByMerchantId>>;
  try {
    found = await findOperationByMerchantId(platform, idTransactionMerchant, { actorUserId: actor.id });
  } catch (error) {
    if (!isPlatformError(error)) throw error;
    getLog().warn({ err: error, idTransactionMerchant }, "look-up of a given-up creation failed");
    await record("unavailable", null);
    return { ok: false, code: "unavailable", message: t("unanswered.unavailable") };
  }
  if (found) await applySnapshot(found.operation, "manualRefresh");
  const confirmed = found
    ? (await settleGivenUpFromMirror()).some((s) => s.idTransactionMerchant === idTransactionMerchant)
    : false;
  const outcome = confirmed
    ? "confirmed"
    : !found
      ? "notFound"
      : answersRequest(found.operation, intent)
        ? // the same type and amount, yet not settled: another operation or intent has this id
          "notConfirmed"
        : "differs";
  const operationId = found?.operation.id ?? null;
  await record(outcome, operationId);
  return { ok: true, outcome, operationId, message: t(`unanswered.outcome.${outcome}`) };
}

/** The operation is of the type and amount the intent asked for (the answer checks of createOnce). */
function answersRequest(operation: Operation, intent: { kind: CreationKind; request: unknown }): boolean {
  return mismatchedFields({ kind: intent.kind, request: intent.request } as Creation, operation).length === 0;
}
