import "server-only";
import pg from "pg";
import { poolQuery, withPoolTransaction } from "@/lib/db";
import type { WebhookOutcome } from "@/lib/generated/prisma/enums";
import {
  applySnapshot,
  SKEW_MS,
  type ApplyOutcome,
  type ApplyResult,
  type UnconfirmedReason,
} from "@/lib/operations/mirror/apply-snapshot";
import {
  fieldsOfSnapshot,
  HINT_FIELDS,
  LIFECYCLE_FIELDS,
  MIRRORED_FIELDS,
} from "@/lib/operations/mirror/mirror-fields";
import { isFinal, statusRank } from "@/lib/operations/status";
import type { PlatformClient } from "@/lib/platform/client";
import type { Operation } from "@/lib/platform/schemas";
import { parseWebhookBody, WebhookBodyError } from "@/lib/platform/webhook-body";
import { getLog } from "@/lib/log";
import { storableJson, storableText } from "@/lib/storable-text";
import { bodyErrorNote, type AppliedNote, type OutcomeNote } from "@/lib/webhooks/outcome-notes";

/**
 * A delivery whose read-back fails, or whose processing throws, is retried on later passes; after this
 * many attempts it is `failed`, with the last error in its note.
 */
export const MAX_PROCESSING_ATTEMPTS = 8;

/**
 * Claims after which a delivery none of whose attempts ended is given up (see handle). Twice the attempts:
 * a lease also runs out while its loop waits on slow read-backs of the rows ahead of it, and the row is
 * then claimed again without any crash; that happens once or twice, not eight times.
 */
export const ABANDON_AFTER_CLAIMS = 2 * MAX_PROCESSING_ATTEMPTS;

// An error message kept in a note is cut to this many characters.
const ERROR_KEPT = 2000;

/** A leased delivery; pg gives the bigint id as its decimal text. */
type Claimed = { id: string; body: string; processingAttempts: number; receivedAt: Date; claimedUntil: Date };
type Decision = { outcome: WebhookOutcome; note: OutcomeNote | null; readBackTraceID: string | null } | null;

const outcomeOf: Record<ApplyOutcome, WebhookOutcome> = {
  inserted: "applied",
  updated: "applied",
  unchanged: "duplicate",
  stale: "stale",
  conflict: "disagreement",
  unconfirmed: "disagreement",
};

// How long a worker may hold a delivery while it reads the operation back before another may take it.
const CLAIM_SECONDS = 60;
// Deliveries a processing loop leases at once: a backlog drains with a claim per few deliveries. A loop
// processes its batch in order, so a slow read-back holds up at most the few behind it.
const CLAIM_BATCH = 4;

/**
 * Takes up to `count` of the oldest waiting deliveries whose lease is free and leases them, through the
 * partial index of waiting deliveries (`WebhookDelivery_waiting_idx`): a handful of rows read whatever
 * the inbox's history or backlog. Run after CLAIM_SETTINGS, which forbids the planner the one other
 * shape it picks from stale statistics (every waiting delivery read and sorted by id: seen on a freshly
 * emptied inbox, each claim slower as the backlog grew); without waiting rows in its statistics it may
 * otherwise also walk the primary key from the oldest delivery ever received, skipping every processed
 * one.
 */
export function claimStatement(count: number): string {
  return `
  UPDATE "WebhookDelivery" SET "claimedUntil" = now() + make_interval(secs => ${CLAIM_SECONDS}),
                               "processingAttempts" = "processingAttempts" + 1
  WHERE id = ANY(ARRAY(SELECT id FROM "WebhookDelivery"
                       WHERE outcome = 'received' AND ("claimedUntil" IS NULL OR "claimedUntil" < now())
                       ORDER BY id LIMIT ${Math.trunc(count)} FOR UPDATE SKIP LOCKED))
  RETURNING id, body, "processingAttempts", "receivedAt", "claimedUntil"`;
}

/** The claim's transaction: no wait for the disk at commit (see claim()), and no sorted plan. */
export const CLAIM_SETTINGS = "SET LOCAL synchronous_commit = off; SET LOCAL enable_sort = off";

// Sent as plain pg queries, not prepared (named): a plan cached while the inbox was empty would read
// it whole later (tests/integration/db/prepared-plans.test.ts).
const RETRY_DELIVERY_LATER = `UPDATE "WebhookDelivery" SET "claimedUntil" = $2 WHERE id = $1 AND outcome = 'received'`;
// Leases given back untouched, attempt included: the rows of a batch behind one whose outcome could not
// be recorded. Only while the lease is still this worker's.
const RELEASE_DELIVERIES = `UPDATE "WebhookDelivery" d SET "claimedUntil" = NULL,
    "processingAttempts" = greatest(d."processingAttempts" - 1, 0)
  FROM unnest($1::bigint[], $2::timestamptz[]) AS mine(id, until)
  WHERE d.id = mine.id AND d."claimedUntil" = mine.until AND d.outcome = 'received'`;

/**
 * Processes received webhooks; several workers may run at once. Deliveries are leased a few at a time
 * (SKIP LOCKED, no transaction held across a read-back), then decided one after the other. A webhook is
 * a hint (see apply-snapshot.ts): a later non-final status of a mirrored operation whose other fields
 * match the mirror has its status and date applied from the body; anything else (a final status, an
 * unknown operation, different amounts or details, a dateUpdated ahead of its arrival or behind the
 * mirror's) is applied only from GET by id, and a read-back that contradicts the webhook is applied as
 * the truth and flagged. Returns how many deliveries were handled.
 */
export async function processPendingWebhooks(
  platform: Pick<PlatformClient, "getOperation">,
  limit = 100,
  keepGoing: () => boolean = () => true,
): Promise<number> {
  let handled = 0;
  while (handled < limit && keepGoing()) {
    const rows = await claim(Math.min(CLAIM_BATCH, limit - handled));
    if (rows.length === 0) break;
    for (const [i, row] of rows.entries()) {
      // Stopping (the worker got SIGTERM): the rows not yet begun are given back for another worker now,
      // not when their leases run out.
      if (!keepGoing()) {
        await release(rows.slice(i));
        return handled;
      }
      try {
        await handle(row, platform);
      } catch (error) {
        // Not even a failure could be recorded (the database is unreachable?): the rows behind it are
        // given back at once, this one waits for its lease to run out; the loop reports the error.
        await release(rows.slice(i + 1)).catch(() => undefined);
        throw error;
      }
      handled++;
    }
  }
  return handled;
}

async function release(rows: Claimed[]): Promise<void> {
  if (rows.length === 0) return;
  await poolQuery({
    text: RELEASE_DELIVERIES,
    values: [rows.map((r) => r.id), rows.map((r) => r.claimedUntil)],
  });
}

/**
 * Decides one delivery and records the decision. Whatever its processing throws stays with it: a body
 * the parser refuses is settled at once with the receiver's note (a row stored before that check
 * existed); any other error is tried again after a backoff, like a failed read-back, and after
 * MAX_PROCESSING_ATTEMPTS the delivery is `failed` with the error. Throws only when the database
 * refuses to record even that.
 */
async function handle(row: Claimed, platform: Pick<PlatformClient, "getOperation">): Promise<void> {
  // Every attempt that ends records a decision or a retry, and one at or past MAX_PROCESSING_ATTEMPTS
  // settles the delivery: one claimed past ABANDON_AFTER_CLAIMS never ended, time after time (its process
  // was killed or ran out of memory on it, or the database went away). It is not tried again, or one
  // delivery could crash every worker in turn.
  if (row.processingAttempts > ABANDON_AFTER_CLAIMS) {
    const attempts = row.processingAttempts - 1;
    getLog().warn({ deliveryId: row.id, attempts }, "webhook processing never finished");
    const note = { code: "processingUnfinished" as const, args: { attempts } };
    await poolQuery({ text: settlement(row, { outcome: "failed", note, readBackTraceID: null }) });
    return;
  }
  let decision: Decision | typeof SETTLED;
  try {
    decision = await decide(row, platform);
  } catch (error) {
    const known = error instanceof WebhookBodyError;
    // The message only: a database error's other fields (detail, where) may quote the data it refused.
    const message = error instanceof Error ? error.message : String(error);
    getLog()[known ? "info" : "warn"](
      { deliveryId: row.id, attempts: row.processingAttempts, error: message },
      "webhook processing failed",
    );
    decision = known
      ? { outcome: "malformed", note: bodyErrorNote(error), readBackTraceID: null }
      : row.processingAttempts >= MAX_PROCESSING_ATTEMPTS
        ? {
            outcome: "failed",
            note: {
              code: "processingFailed",
              args: { attempts: row.processingAttempts, error: errorText(error) },
            },
            readBackTraceID: null,
          }
        : null;
  }
  if (decision === null) {
    const retryAt = new Date(Date.now() + retryDelayMs(row.processingAttempts));
    await poolQuery({ text: RETRY_DELIVERY_LATER, values: [row.id, retryAt] });
  } else if (decision !== SETTLED) await poolQuery({ text: settlement(row, decision) });
}

/**
 * An error's message, and a database error's detail, for a note (read by those who may read the body
 * anyway), cut to ERROR_KEPT characters.
 */
function errorText(error: unknown): string {
  const detail = error instanceof pg.DatabaseError && error.detail ? `: ${error.detail}` : "";
  const message = error instanceof Error ? `${error.message}${detail}` : String(error);
  return message.length > ERROR_KEPT ? `${message.slice(0, ERROR_KEPT)}…` : message;
}

/**
 * The lease is committed without waiting for the WAL to reach the disk (one query, so one round trip:
 * SET LOCAL applies to the implicit transaction of a multi-statement query). Losing it in a crash
 * of PostgreSQL only puts the delivery back in line, and processing it again changes nothing.
 */
async function claim(count: number): Promise<Claimed[]> {
  const results = (await poolQuery({
    text: `${CLAIM_SETTINGS}; ${claimStatement(count)}`,
  })) as unknown as pg.QueryResult<Claimed>[];
  return (results.at(-1)?.rows ?? []).sort((a, b) => Number(BigInt(a.id) - BigInt(b.id)));
}

/**
 * The statement that records the decision on the delivery, its values written in as escaped literals:
 * it is sent on its own or with the COMMIT of the transaction that applied the snapshot. It changes a
 * delivery still waiting only (never one another worker settled after this one's lease ran out). Its text is
 * storable whatever it holds: a note's arguments (an error message from the network, say) and a
 * read-back's traceID keep U+FFFD in place of U+0000 and of a lone surrogate (lib/storable-text.ts).
 */
function settlement(row: Claimed, decision: NonNullable<Decision>): string {
  const literal = (value: string | null) => (value === null ? "NULL" : pg.escapeLiteral(storableText(value)));
  const args = decision.note?.args === undefined ? null : storableJson(decision.note.args);
  return `UPDATE "WebhookDelivery" SET outcome = ${literal(decision.outcome)}::"WebhookOutcome",
    "outcomeCode" = ${literal(decision.note?.code ?? null)},
    "outcomeArgs" = ${literal(args)}::jsonb, "outcomeDetail" = NULL,
    "readBackTraceID" = ${literal(decision.readBackTraceID)}, "processedAt" = now(), "claimedUntil" = NULL
  WHERE id = ${literal(String(row.id))}::bigint AND outcome = 'received'`;
}

/** decide() recorded its decision itself, in the transaction that applied the snapshot. */
const SETTLED = Symbol("settled");

/**
 * Applies the snapshot and, when the outcome decides the delivery, records the decision in the same
 * transaction: one commit for the mirror and the inbox. `decisionOf` returns null when the outcome
 * decides nothing yet (a hint to confirm by a read-back); the delivery is then left as it is.
 * The commit does not wait for the disk: the delivery it settles was stored durably on receipt, so if a
 * crash of PostgreSQL undoes it, the delivery is still waiting (or its lease runs out) and is processed
 * again, to the same mirror state. Waiting, each processing loop spent most of its time on the disk.
 */
async function applyAndSettle(
  row: Claimed,
  op: Operation,
  source: "webhook" | "readBack",
  options: { sourceRef: string | null; receivedAt: Date },
  decisionOf: (applied: ApplyResult) => NonNullable<Decision> | null,
): Promise<{ applied: ApplyResult; settled: boolean }> {
  return withPoolTransaction(
    async (tx) => {
      const applied = await applySnapshot(op, source, { ...options, tx });
      const decision = decisionOf(applied);
      if (decision) tx.atCommit(settlement(row, decision));
      return { applied, settled: decision !== null };
    },
    { statementTimeoutMs: 30_000, synchronousCommit: false },
  );
}

/** A failed read-back is tried again after 1, 2, 4 ... seconds (at most a minute). */
function retryDelayMs(attempts: number): number {
  return Math.min(60_000, 1000 * 2 ** (attempts - 1));
}

/** The delivery's decision: recorded already (SETTLED), to record, or null to try again later. */
async function decide(
  row: Claimed,
  platform: Pick<PlatformClient, "getOperation">,
): Promise<Decision | typeof SETTLED> {
  const { operation, traceID } = parseWebhookBody(row.body);
  const sourceRef = `webhook:${row.id}`;
  let readBackReason: UnconfirmedReason | null = null;
  if (!isFinal(operation.status)) {
    const { applied, settled } = await applyAndSettle(
      row,
      operation,
      "webhook",
      { sourceRef, receivedAt: row.receivedAt },
      (applied) => {
        if (applied.outcome === "unconfirmed") return null;
        const then = appliedNote(applied.outcome);
        return {
          outcome: outcomeOf[applied.outcome],
          note: then ? { code: then, args: { traceID } } : null,
          readBackTraceID: null,
        };
      },
    );
    if (settled) return SETTLED;
    readBackReason = applied.reason ?? { why: "unconfirmed" };
  }
  // Final status: business decisions rest on the read-back (spec, Receiver requirements 4). Any other
  // hint the mirror cannot take on its word is confirmed the same way.
  let readBack;
  const readAt = new Date();
  try {
    readBack = await platform.getOperation(operation.id);
  } catch (error) {
    if (row.processingAttempts >= MAX_PROCESSING_ATTEMPTS) {
      return {
        outcome: "failed",
        note: {
          code: "readBackFailed",
          args: { attempts: MAX_PROCESSING_ATTEMPTS, error: errorText(error) },
        },
        readBackTraceID: null,
      };
    }
    return null;
  }
  if (!readBack.operation) {
    return {
      outcome: "disagreement",
      note: { code: "unknownToPlatform", args: { operationId: operation.id } },
      readBackTraceID: readBack.traceID,
    };
  }
  const truth = readBack.operation;
  const readBackTraceID = readBack.traceID;
  await applyAndSettle(
    row,
    truth,
    "readBack",
    { sourceRef: readBackTraceID, receivedAt: readAt },
    (applied) => {
      const contradiction = contradictions(operation, truth, row.receivedAt);
      if (contradiction) return { outcome: "disagreement", note: contradiction, readBackTraceID };
      const then = appliedNote(applied.outcome);
      return {
        outcome: outcomeOf[applied.outcome],
        note: readBackReason
          ? { code: "readBack", args: { ...readBackReason, then, traceID } }
          : then && { code: then, args: { traceID } },
        readBackTraceID,
      };
    },
  );
  return SETTLED;
}

/**
 * Where the webhook said something the platform's read-back does not: a final status it does not have,
 * a status it has not reached, other amounts or details, or a dateUpdated ahead of the webhook's arrival.
 * A read-back further along than a non-final webhook is no contradiction (the platform moved on, and
 * the fields that move with the status may have changed with it).
 */
function contradictions(webhook: Operation, truth: Operation, receivedAt: Date): OutcomeNote | null {
  const movedOn = webhook.status !== truth.status;
  if (movedOn && (isFinal(webhook.status) || statusRank(webhook.status) >= statusRank(truth.status))) {
    return { code: "readBackStatusDiffers", args: { said: webhook.status, read: truth.status } };
  }
  const said = fieldsOfSnapshot(webhook);
  const read = fieldsOfSnapshot(truth);
  const ignored = movedOn ? LIFECYCLE_FIELDS : HINT_FIELDS;
  const fields = MIRRORED_FIELDS.filter(
    (f) => !ignored.has(f) && f in said && f in read && said[f] !== read[f],
  );
  if (fields.length > 0) return { code: "readBackFieldsDiffer", args: { fields } };
  if (webhook.dateUpdated && webhook.dateUpdated.getTime() > receivedAt.getTime() + SKEW_MS) {
    return { code: "readBackDateAhead", args: { at: webhook.dateUpdated.toISOString() } };
  }
  return null;
}

/** What an applied snapshot did, when it did not take the webhook's news (null: applied, or no note). */
function appliedNote(outcome: ApplyOutcome): AppliedNote | null {
  switch (outcome) {
    case "unchanged":
      return "alreadyMirrored";
    case "stale":
      return "olderThanMirror";
    case "conflict":
      return "wouldChangeFinal";
    default:
      return null;
  }
}
