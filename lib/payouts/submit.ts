import "server-only";
import { audit, systemActor, type Actor } from "@/lib/audit/log";
import { getDb } from "@/lib/db";
import { getLog } from "@/lib/log";
import { applySnapshot } from "@/lib/operations/mirror/apply-snapshot";
import {
  createOnce,
  IdempotencyConflictError,
  type CreationOutcome,
} from "@/lib/operations/mirror/create-once";
import type { PlatformClient } from "@/lib/platform/client";
import { isPlatformError } from "@/lib/platform/errors";
import { getPlatformClient } from "@/lib/platform/from-env";
import type { PayOutMethod } from "@/lib/platform/payment-methods";
import type { Prisma } from "@/lib/generated/prisma/client";
import { settledOutcome } from "@/lib/operations/mirror/creation-intent";
import { storableOrNull } from "@/lib/storable-text";
import { explainPlatformRefusal, platformErrorWords, type ExplainedError } from "./errors";
import { moveRequest } from "./move";
import { canRelease, releaseRefusalMessage, type ReleaseRefusal } from "./policy";
import { describeDuplicates, findSubmissionBlockers, lockRecipient } from "./duplicates";
import type { PayoutRequestStatus } from "./state";
import { payoutWords } from "./words";

/** What canRelease reads of a request: its maker's account and its approvers'. */
const RELEASE_CHECK = {
  maker: { select: { disabledAt: true } },
  approvals: { select: { decision: true, approver: { select: { disabledAt: true, role: true } } } },
} satisfies Prisma.PayoutRequestInclude;

/** What submission needs from the platform client (createOnce plus a read to mirror the operation). */
export type SubmitPlatform = Parameters<typeof createOnce>[0] & Pick<PlatformClient, "getOperation">;

export type SubmitResult =
  | { ok: true; status: "submitted"; operationId: string; traceID: string | null }
  | { ok: true; status: "submitting"; message: string; traceID: string | null }
  | { ok: false; code: "failed_to_submit"; error: ExplainedError }
  | { ok: false; code: "blocked_duplicate"; message: string }
  | { ok: false; code: "not_approved"; status: PayoutRequestStatus; message: string }
  | { ok: false; code: ReleaseRefusal; message: string }
  | { ok: false; code: "not_found"; message: string };

type Row = {
  id: string;
  idTransactionMerchant: string;
  paymentMethod: string;
  bankName: string;
  recipientNumber: string;
  recipientName: string;
  amount: { toFixed(): string };
  clientID: string;
  clientIP: string;
  clientDateCreated: Date;
  webhookUrl: string | null;
  makerId: string;
};

/** The stored request as createOnce stores and resends it: same bytes on every attempt. */
export function creationFor(row: Row) {
  return {
    kind: "payOut" as const,
    request: {
      paymentMethod: row.paymentMethod as PayOutMethod,
      idTransactionMerchant: row.idTransactionMerchant,
      amount: row.amount.toFixed(),
      clientID: row.clientID,
      clientIP: row.clientIP,
      clientDateCreated: row.clientDateCreated.toISOString(),
      number: row.recipientNumber,
      bankName: row.bankName,
      nameMediator: row.recipientName,
      ...(row.webhookUrl ? { integrationMerhcnatData: { webHook: row.webhookUrl } } : {}),
    },
  };
}

/**
 * Moves a submitting request to the outcome of its submission (`data` sets the other columns) and,
 * when this caller made the move, audits it, in one transaction.
 */
async function settleSubmission(
  id: string,
  actor: Actor,
  to: "submitted" | "failed_to_submit",
  data: Parameters<typeof moveRequest>[4],
  after: Record<string, string | null>,
): Promise<void> {
  await getDb().$transaction(async (tx) => {
    if (await moveRequest(tx, id, "submitting", to, data)) {
      await audit(tx, actor, {
        action: `payout.${to}`,
        targetType: "payoutRequest",
        targetId: id,
        before: { status: "submitting" },
        after: { status: to, ...after },
      });
    }
  });
}

/**
 * Sends an approved request to the platform exactly once. Only the caller whose conditional update
 * moves it from approved to submitting sends it (double clicks, two approvers, retries all lose that
 * race and get the current state back); createOnce then makes the send itself exactly-once per
 * idTransactionMerchant, so a lost answer is resolved with the same id, never a new operation.
 * The duplicate guard runs again first (unless the request carries an admin override): an earlier
 * pay-out to the recipient may have gone to pending_retry since this one was created.
 */
export async function submitPayout(
  id: string,
  actor: Actor,
  platform: SubmitPlatform = getPlatformClient(),
): Promise<SubmitResult> {
  const db = getDb();
  const words = await payoutWords();
  const { t } = words;
  const claimed = await db.$transaction(async (tx) => {
    const row = await tx.payoutRequest.findUnique({ where: { id }, include: RELEASE_CHECK });
    if (!row) return { ok: false as const, code: "not_found" as const, message: t("refusals.notFound") };
    if (row.status !== "approved") {
      return {
        ok: false as const,
        code: "not_approved" as const,
        status: row.status,
        message:
          row.status === "submitting" || row.status === "submitted"
            ? t("submit.alreadySubmitting")
            : t("submit.notApproved", { status: t(`statuses.${row.status}`) }),
      };
    }
    const release = canRelease(row);
    if (!release.ok) {
      const message = releaseRefusalMessage(t, release, row.requiredApprovals);
      await tx.payoutRequest.update({ where: { id }, data: { lastMessage: message } });
      return { ok: false as const, code: release.reason, message };
    }
    await lockRecipient(tx, row.recipientNumber);
    if (!row.overrideReason) {
      const duplicates = await findSubmissionBlockers(tx, row.recipientNumber, row.amount.toFixed(), row.id);
      if (duplicates.length > 0) {
        const message = describeDuplicates(duplicates, words);
        await tx.payoutRequest.update({ where: { id }, data: { lastMessage: message } });
        return { ok: false as const, code: "blocked_duplicate" as const, message };
      }
    }
    if (!(await moveRequest(tx, id, "approved", "submitting", { lastMessage: null }))) {
      return {
        ok: false as const,
        code: "not_approved" as const,
        status: "submitting" as const,
        message: t("submit.alreadySubmitting"),
      };
    }
    await audit(tx, actor, {
      action: "payout.submit",
      targetType: "payoutRequest",
      targetId: id,
      before: { status: "approved" },
      after: { status: "submitting", idTransactionMerchant: row.idTransactionMerchant },
    });
    return { ok: true as const, row };
  });
  if (!claimed.ok) return claimed;
  return send(claimed.row, actor, platform);
}

async function send(
  row: Row & { id: string },
  actor: Actor,
  platform: SubmitPlatform,
): Promise<SubmitResult> {
  let outcome: CreationOutcome;
  try {
    outcome = await createOnce(platform, creationFor(row), { actorUserId: actor.id ?? undefined });
  } catch (error) {
    if (error instanceof IdempotencyConflictError) {
      // kept as the request's record (lastMessage) and shown as "the platform said": it is Paydesk's own
      // refusal, in the language of whoever sent the request
      return settle(row.id, actor, {
        status: "rejected",
        codeError: null,
        message: (await payoutWords()).t("submit.merchantIdConflict"),
        traceID: null,
      });
    }
    // Database or unexpected failure: the intent (if stored) is resolved later; the request stays
    // submitting and syncSubmittingPayouts finishes it. Nothing is sent twice.
    getLog().error({ err: error, payoutRequestId: row.id }, "pay-out submission failed unexpectedly");
    return {
      ok: true,
      status: "submitting",
      message: (await payoutWords()).t("submit.retryLater"),
      traceID: null,
    };
  }
  return settle(row.id, actor, outcome, platform);
}

/**
 * Moves a submitting request to the outcome of its creation intent (one conditional update). The
 * platform's text is made storable first: a refusal the database cannot store would leave the request
 * submitting for good.
 */
async function settle(
  id: string,
  actor: Actor,
  outcome: CreationOutcome,
  platform?: Pick<PlatformClient, "getOperation">,
): Promise<SubmitResult> {
  const db = getDb();
  if (outcome.status === "pending") {
    await db.payoutRequest.updateMany({
      where: { id, status: "submitting" },
      data: {
        lastMessage: storableOrNull(outcome.message.slice(0, 500)),
        lastTraceID: storableOrNull(outcome.traceID),
      },
    });
    const words = await payoutWords();
    const givenUp =
      outcome.reason === "stopped" &&
      (await db.payoutRequest.findUnique({ where: { id }, select: { idTransactionMerchant: true } }));
    return {
      ok: true,
      status: "submitting",
      message: givenUp
        ? words.t("submit.unresolved", { id: givenUp.idTransactionMerchant })
        : words.t("submit.answerLost"),
      traceID: outcome.traceID,
    };
  }
  if (outcome.status === "created") {
    await ensureMirrored(outcome.operationId, platform);
    const traceID = storableOrNull(outcome.traceID);
    await settleSubmission(
      id,
      actor,
      "submitted",
      {
        operationId: outcome.operationId,
        submittedAt: new Date(),
        lastTraceID: traceID,
        lastCodeError: null,
        lastMessage: null,
      },
      { operationId: outcome.operationId, traceID },
    );
    return { ok: true, status: "submitted", operationId: outcome.operationId, traceID: outcome.traceID };
  }
  const row = await db.payoutRequest.findUnique({ where: { id }, select: { paymentMethod: true } });
  const error = explainPlatformRefusal(
    {
      codeError: outcome.codeError,
      message: outcome.message,
      traceID: outcome.traceID,
      kind: outcome.kind,
      httpStatus: outcome.httpStatus,
      paymentMethod: row?.paymentMethod ?? null,
    },
    await platformErrorWords(),
  );
  const [codeError, traceID] = [storableOrNull(outcome.codeError), storableOrNull(outcome.traceID)];
  await settleSubmission(
    id,
    actor,
    "failed_to_submit",
    {
      lastCodeError: codeError,
      lastMessage: storableOrNull(outcome.message.slice(0, 2000)),
      lastTraceID: traceID,
    },
    { codeError, traceID },
  );
  return { ok: false, code: "failed_to_submit", error };
}

/** The request's operationId references the mirror: make sure the operation is there. */
async function ensureMirrored(operationId: string, platform?: Pick<PlatformClient, "getOperation">) {
  const found = await getDb().operation.findUnique({ where: { id: operationId }, select: { id: true } });
  if (found || !platform) return;
  try {
    const { operation, traceID } = await platform.getOperation(operationId);
    if (operation) await applySnapshot(operation, "readBack", { sourceRef: traceID });
  } catch (error) {
    if (!isPlatformError(error)) throw error;
  }
}

// A submission job normally runs within seconds of the approval; one not run after this is taken as lost.
const LOST_HAND_OFF_MS = 60_000;

/**
 * For the worker's submittingPayouts schedule: sends approved requests whose submission job never ran
 * (the queue was unreachable when they were approved, or the job was lost) once they have waited
 * LOST_HAND_OFF_MS. Requests the duplicate guard held back carry its message and wait for a person
 * (Send on the pay-out page). submitPayout's claim keeps a late job and the sweep from both sending.
 * Returns the number of requests it claimed.
 */
export async function submitLostApprovals(
  platform: SubmitPlatform = getPlatformClient(),
  now = new Date(),
): Promise<number> {
  const rows = await getDb().payoutRequest.findMany({
    where: {
      status: "approved",
      lastMessage: null,
      updatedAt: { lt: new Date(now.getTime() - LOST_HAND_OFF_MS) },
    },
    select: { id: true },
    orderBy: { updatedAt: "asc" },
    take: 20,
  });
  let claimed = 0;
  for (const { id } of rows) {
    const result = await submitPayout(id, systemActor, platform);
    if (result.ok || result.code === "failed_to_submit") claimed++;
  }
  return claimed;
}

const STALE_SUBMITTING_MS = 30_000;

/**
 * For the worker (schedule it next to pendingIntents, e.g. every minute): finishes requests left in
 * `submitting` - when their creation intent was confirmed or rejected by the pending-intents job they
 * move to submitted / failed_to_submit; when no intent was ever stored (the process stopped between the
 * claim and the send) and the claim is older than 30 s, the request is sent now (createOnce, same id).
 * Returns the number of requests settled.
 */
export async function syncSubmittingPayouts(
  platform: SubmitPlatform = getPlatformClient(),
  now = new Date(),
): Promise<number> {
  const db = getDb();
  const rows = await db.payoutRequest.findMany({ where: { status: "submitting" }, take: 100 });
  let settled = 0;
  for (const row of rows) {
    const intent = await db.creationIntent.findUnique({
      where: { idTransactionMerchant: row.idTransactionMerchant },
    });
    const outcome = intent ? settledOutcome(intent) : null;
    let result: SubmitResult | null = null;
    if (outcome) result = await settle(row.id, systemActor, outcome, platform);
    else if (!intent && now.getTime() - row.updatedAt.getTime() > STALE_SUBMITTING_MS) {
      result = await send(row, systemActor, platform);
    }
    if (result && !(result.ok && result.status === "submitting")) settled++;
  }
  return settled;
}
