import "server-only";
// A creation intent's claim and give-up rules (createOnce, create-once.ts): who may send it now, when it
// is settled, and when the background job stops resending it.
import { getDb } from "@/lib/db";
import type { CreationIntent, Prisma } from "@/lib/generated/prisma/client";
import type { CreationOutcome } from "@/lib/operations/mirror/create-once";

/** Age after which the background job stops resending an intent (`gaveUpAt`): an operation created that
 * late helps nobody (the client has gone, or a person has acted). Age, not sends: a platform out for an
 * hour costs sixty rounds of three, and the pay-outs waiting on it must still settle by themselves. */
export const MAX_INTENT_AGE_MS = 24 * 60 * 60_000;
/**
 * A caller's claim on an id, renewed every RENEW_CLAIM_MS while its round of sends and look-ups runs:
 * a process killed mid-round holds the id for at most this long, not for the longest round there could be.
 */
const CLAIM_SECONDS = 30;
const RENEW_CLAIM_MS = 10_000;
/** How long a second caller waits for the first one's answer before answering "in progress". */
export const WAIT_FOR_OTHER_MS = 60_000;
export const WAIT_STEP_MS = 200;

/** Intents a caller may still send: open, or confirmed without the operation's id (a form's answer). */
export const OPEN = {
  OR: [{ state: "pending" }, { state: "confirmed", operationId: null }],
} satisfies Prisma.CreationIntentWhereInput;

/** The outcome a settled intent gives without a call, or null while it is open. */
export function settledOutcome(intent: CreationIntent): CreationOutcome | null {
  if (intent.state === "confirmed" && intent.operationId)
    return {
      status: "created",
      operationId: intent.operationId,
      traceID: intent.lastTraceID,
      linkPaymentForm: intent.linkPaymentForm,
      operation: null,
      confirmedNow: false,
    };
  if (intent.state === "rejected")
    return {
      status: "rejected",
      codeError: intent.lastCodeError,
      message: intent.lastMessage ?? "rejected",
      traceID: intent.lastTraceID,
      kind: intent.lastErrorKind,
      httpStatus: intent.lastHttpStatus,
    };
  return null;
}

/**
 * Runs `send` while this caller holds the id's claim (renewed as it runs, given back at the end); null,
 * without running it, when another caller holds the claim.
 */
export async function whileClaimed<T>(id: string, send: () => Promise<T>): Promise<{ result: T } | null> {
  let until = await claim(id);
  if (!until) return null;
  let renewing: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    renewing = renew(id, until!)
      .then((next) => void (next && (until = next)))
      .catch(() => undefined);
  }, RENEW_CLAIM_MS);
  try {
    return { result: await send() };
  } finally {
    clearInterval(timer);
    await renewing;
    await release(id, until);
  }
}

/** The id for this caller alone until the claim's end (the database's clock), or null when another holds it. */
async function claim(id: string): Promise<Date | null> {
  const rows = await getDb().$queryRaw<{ sendingUntil: Date }[]>`
    UPDATE "CreationIntent"
    SET "sendingUntil" = now() + ${`${CLAIM_SECONDS} seconds`}::interval, "updatedAt" = now()
    WHERE "idTransactionMerchant" = ${id}
      AND (state = 'pending' OR (state = 'confirmed' AND "operationId" IS NULL))
      AND ("sendingUntil" IS NULL OR "sendingUntil" < now())
    RETURNING "sendingUntil"`;
  return rows[0]?.sendingUntil ?? null;
}

/** Extends a claim this caller still holds; null when it has lost it (it ran out and another took it). */
async function renew(id: string, claimed: Date): Promise<Date | null> {
  const rows = await getDb().$queryRaw<{ sendingUntil: Date }[]>`
    UPDATE "CreationIntent" SET "sendingUntil" = now() + ${`${CLAIM_SECONDS} seconds`}::interval
    WHERE "idTransactionMerchant" = ${id} AND "sendingUntil" = ${claimed}
    RETURNING "sendingUntil"`;
  return rows[0]?.sendingUntil ?? null;
}

async function release(id: string, claimed: Date): Promise<void> {
  await getDb().creationIntent.updateMany({
    where: { idTransactionMerchant: id, sendingUntil: claimed },
    data: { sendingUntil: null },
  });
}

export function exhausted(intent: Pick<CreationIntent, "createdAt">, now = Date.now()): boolean {
  return now - intent.createdAt.getTime() >= MAX_INTENT_AGE_MS;
}

export function stopped(intent: CreationIntent, last: string | null): CreationOutcome {
  return {
    status: "pending",
    reason: "stopped",
    message: `Paydesk stopped resending after ${intent.attempts} sends over a day without a definite answer (${last ?? "unknown"}); a person must find out whether idTransactionMerchant ${intent.idTransactionMerchant} exists on the platform.`,
    traceID: intent.lastTraceID,
  };
}
