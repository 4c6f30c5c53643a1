import "server-only";
import { setTimeout as sleep } from "node:timers/promises";
import { getDb } from "@/lib/db";
import { withSessionAdvisoryLock } from "@/lib/db-session-lock";
import { Prisma } from "@/lib/generated/prisma/client";
import type { ReconciliationKind } from "@/lib/generated/prisma/enums";
import { isWriteConflict } from "@/lib/errors/write-conflict";
import { applySnapshotsBatch, type BatchItemResult } from "@/lib/operations/mirror/apply-batch";
import { SKEW_MS } from "@/lib/operations/mirror/apply-snapshot";
import type { PlatformClient } from "@/lib/platform/client";
import type { UnreadableOperation } from "@/lib/platform/schemas";
import { findDrift, type DriftFinding } from "@/lib/reconcile/drift";
import { readOpenOperations } from "@/lib/reconcile/open-operations";
import type { StopNote } from "@/lib/reconcile/run-notes";
import { walkOperations, type WalkedPage } from "@/lib/reconcile/walk";
import { storableJson } from "@/lib/storable-text";

const RUNNER_LOCK = 7_370_001;
/**
 * How long a queued full run waits at most for the runner (held by an incremental run: seconds, every 5
 * minutes; the nightly full at 03:17 falls between two): well inside the full job's expiry (3 h,
 * lib/queue/queues.ts), so the run itself still has hours.
 */
export const FULL_RUN_WAITS_MS = 30 * 60_000;
// How often a waiting run tries the runner again (a connection of its own each time).
const RUNNER_RETRY_MS = 1_000;

export type ReconcileOptions = {
  kind: ReconciliationKind;
  platform: Pick<PlatformClient, "listOperations" | "getOperation">;
  take?: number;
  /** Incremental runs re-read this much before their stop point. */
  overlapMinutes?: number;
  /** An operation is expected in the mirror once it has been unchanged this long (webhooks had time). */
  graceMinutes?: number;
  triggeredById?: string | null;
  now?: () => Date;
  /**
   * Awaited before each page is stored and before each batch of reads by id; returns the ms it waited
   * (the worker's: yieldToWebhooks).
   */
  yieldTo?: () => Promise<number>;
  /** Aborted when the worker stops: the run no longer waits out a platform outage (walkOperations). */
  stopping?: AbortSignal;
  /**
   * While another run holds the runner, wait up to this long for it (a queued full run: it must not be
   * lost), then fail; without it the run steps aside at once (`skipped`: an incremental run, which the
   * run under way covers and the next schedule repeats).
   */
  waitForRunnerMs?: number;
};

export type ReconcileResult =
  | {
      status: "completed";
      runId: string;
      pages: number;
      operationsSeen: number;
      inserted: number;
      updated: number;
      drift: number;
      /** Open operations older than an incremental run's walk, read by id. */
      readById: number;
      /** Time the run gave to webhook processing (`yieldTo`), in ms. */
      yieldedMs: number;
      stop: StopNote;
    }
  | { status: "skipped"; reason: string };

/**
 * Where an incremental run may stop: the last reconciled point, less the overlap. Open operations older
 * than that are read by id after the walk (readOpenOperations), not by walking the list back to them.
 */
async function incrementalLowerBound(overlapMinutes: number): Promise<Date | null> {
  const last = await getDb().reconciliationRun.findFirst({
    where: { status: "completed", watermark: { not: null } },
    orderBy: { startedAt: "desc" },
  });
  if (!last?.watermark) return null;
  return new Date(last.watermark.getTime() - overlapMinutes * 60_000);
}

/**
 * One runner across all instances. A run that waits for it and cannot have it (the worker stops, or the
 * wait runs out) throws: its pg-boss job fails and is retried (the queue's retryLimit), never dropped.
 */
export async function runReconciliation(options: ReconcileOptions): Promise<ReconcileResult> {
  const waitUntil = Date.now() + (options.waitForRunnerMs ?? 0);
  for (;;) {
    const result = await withSessionAdvisoryLock(
      RUNNER_LOCK,
      { wait: false, purpose: "reconciliation runner" },
      () => reconcile(options),
    );
    if (result) return result;
    if (options.waitForRunnerMs === undefined)
      return { status: "skipped", reason: "another reconciliation is running" };
    if (Date.now() >= waitUntil)
      throw new Error(
        `another reconciliation held the runner for ${options.waitForRunnerMs} ms: the ${options.kind} run is retried`,
      );
    await sleep(RUNNER_RETRY_MS, undefined, { signal: options.stopping }).catch(() => undefined);
    if (options.stopping?.aborted)
      throw new Error(`the worker stopped while a ${options.kind} reconciliation waited for the runner`);
  }
}

async function reconcile(options: ReconcileOptions): Promise<ReconcileResult> {
  const db = getDb();
  const now = options.now ?? (() => new Date());
  // We hold the lock: any run still marked running was interrupted.
  await db.reconciliationRun.updateMany({
    where: { status: "running" },
    data: { status: "failed", errorCode: "interrupted", error: null, finishedAt: now() },
  });
  const mirrorWasReconciled = (await db.reconciliationRun.count({ where: { status: "completed" } })) > 0;
  const lowerBound =
    options.kind === "incremental" ? await incrementalLowerBound(options.overlapMinutes ?? 10) : null;
  const startedAt = now();
  const run = await db.reconciliationRun.create({
    data: { kind: options.kind, triggeredById: options.triggeredById ?? null },
  });
  const graceCutoff = new Date(now().getTime() - (options.graceMinutes ?? 10) * 60_000);
  const counters = { pages: 0, operationsSeen: 0, inserted: 0, updated: 0 };
  let drift = 0;
  let watermark: Date | null = null;
  let reachedBack: Date | null = null;
  let yieldedMs = 0;
  let stop: StopNote = { code: "endOfList", args: {} };
  const seen: string[] = [];
  const inFlight: Promise<void>[] = [];
  try {
    const pages = walkOperations(options.platform, {
      take: options.take ?? 1000,
      stopping: options.stopping,
      stop: (page) => {
        const oldest = page.operations.at(-1)?.dateAdded;
        if (lowerBound && oldest && oldest < lowerBound) {
          reachedBack = oldest;
          return true;
        }
        return false;
      },
    });
    // Two pages are stored at once: a count is awaited first and then added (`drift += await ...` would
    // add to the value read before the wait, losing the other page's items).
    const recordResults = async (results: BatchItemResult[], sourceRef: string | null) => {
      const findings = findDrift(results, { graceCutoff, mirrorWasReconciled });
      const recorded = await recordFindings(run.id, findings, sourceRef);
      drift += recorded;
      counters.operationsSeen += results.length;
      counters.inserted += results.filter((r) => r.outcome === "inserted").length;
      counters.updated += results.filter((r) => r.outcome === "updated").length;
    };
    const storePage = async (page: WalkedPage) => {
      await recordResults(await writePage(page), page.traceID);
      if (page.unreadable.length > 0) {
        const recorded = await recordUnreadable(run.id, page.unreadable, page.traceID);
        drift += recorded;
      }
      counters.pages += 1;
      if (options.kind === "full") {
        for (const op of page.operations) seen.push(op.id);
        // still on the platform, only not readable: not missing there
        for (const item of page.unreadable) if (item.id !== null) seen.push(item.id);
      }
      await db.reconciliationRun.update({ where: { id: run.id }, data: counters });
    };
    // Two pages are stored at once: while one page's transaction runs in the database, the next page is
    // judged and sent. Pages hold different operations (the walk drops repeats), each under its own locks.
    for await (const page of pages) {
      // The newest operation of the first page, whichever page is stored first.
      watermark ??= page.operations[0]?.dateAdded ?? null;
      if (options.yieldTo) yieldedMs += await options.yieldTo();
      const stored = storePage(page);
      stored.catch(() => {}); // awaited below or, after a failure, settled in the catch block
      inFlight.push(stored);
      if (inFlight.length === 2) await inFlight.shift();
    }
    while (inFlight.length > 0) await inFlight.shift();
    if (options.kind === "full") drift += await recordMissingOnPlatform(run.id, seen, graceCutoff);
    let readById = 0;
    if (lowerBound && reachedBack) {
      const open = await readOpenOperations(reachedBack, options.platform, { yieldTo: options.yieldTo });
      yieldedMs += open.yieldedMs;
      for (const { results, traceID } of open.applied) await recordResults(results, traceID);
      drift += await recordMissingById(run.id, open.missing);
      readById = open.applied.length + open.missing.length;
      stop = { code: "passedWatermark", args: { at: lowerBound.toISOString(), readById } };
    }
    await db.reconciliationRun.update({
      where: { id: run.id },
      data: {
        ...counters,
        status: "completed",
        finishedAt: now(),
        watermark: cappedWatermark(watermark, startedAt),
        stopCode: stop.code,
        stopArgs: stop.args,
      },
    });
    return { status: "completed", runId: run.id, ...counters, drift, readById, yieldedMs, stop };
  } catch (error) {
    await Promise.allSettled(inFlight);
    const message = error instanceof Error ? error.message : String(error);
    await db.reconciliationRun.update({
      where: { id: run.id },
      data: { ...counters, status: "failed", finishedAt: now(), errorCode: "failed", error: message },
    });
    throw error;
  }
}

/**
 * The watermark stored: the newest dateAdded the walk saw, but never later than the run's start plus
 * SKEW_MS (the mirror's allowance for clocks that differ). One operation dated far in the future (a clock
 * or serialiser fault on the platform) would otherwise put the next incremental runs' stop point there:
 * each would stop after its first page and never walk the operations created since.
 */
function cappedWatermark(newest: Date | null, startedAt: Date): Date | null {
  if (!newest) return null;
  const limit = startedAt.getTime() + SKEW_MS;
  return newest.getTime() > limit ? new Date(limit) : newest;
}

const WRITE_ATTEMPTS = 3;

/**
 * One page in one transaction. Two pages are stored at once and webhooks are applied meanwhile, so a
 * page's transaction may collide with another over the ledger's quarter-hour sums and be ended by
 * PostgreSQL (a deadlock): nothing of it was written, and it is judged and written again.
 */
async function writePage(page: WalkedPage) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await applySnapshotsBatch(page.operations, "reconciliation", page.traceID, page.readAt);
    } catch (error) {
      if (attempt >= WRITE_ATTEMPTS || !isWriteConflict(error)) throw error;
    }
  }
}

/**
 * A page's findings as drift items, in one statement. A finding the run did not repair (a final status
 * the platform disputes: a person decides) is found again by every run that reads the operation: it is
 * not recorded again while an item not resolved yet holds the same disagreement (the operation, kind,
 * fields and both sides' values), whose sourceRef keeps the first read that showed it. A repaired finding
 * is always recorded: each is a change the run made to the mirror. Text PostgreSQL cannot store is kept
 * as U+FFFD.
 */
async function recordFindings(runId: string, findings: DriftFinding[], sourceRef: string | null) {
  if (findings.length === 0) return 0;
  const storedAt = new Date();
  const rows = findings.map(({ repaired, ...f }) => ({ ...f, repairedAt: repaired ? storedAt : null }));
  return getDb().$executeRaw`
    INSERT INTO "DriftItem"
      (id, "runId", "operationId", kind, fields, "mirrorValue", "platformValue", "sourceRef", "repairedAt")
    SELECT gen_random_uuid(), ${runId}::uuid, u."operationId", u.kind, u.fields, u."mirrorValue",
           u."platformValue", ${sourceRef}, u."repairedAt"
    FROM jsonb_to_recordset(${storableJson(rows)}::jsonb) AS u("operationId" uuid, kind "DriftKind",
           fields text[], "mirrorValue" jsonb, "platformValue" jsonb, "repairedAt" timestamptz)
    WHERE u."repairedAt" IS NOT NULL OR NOT EXISTS (
      SELECT 1 FROM "DriftItem" d
      WHERE d."operationId" = u."operationId" AND d.kind = u.kind AND d.state <> 'resolved'
        AND d."repairedAt" IS NULL AND d.fields = u.fields
        AND d."mirrorValue" IS NOT DISTINCT FROM u."mirrorValue"
        AND d."platformValue" IS NOT DISTINCT FROM u."platformValue")`;
}

/** After a full walk: mirrored operations the platform's list no longer has. */
async function recordMissingOnPlatform(runId: string, seen: string[], graceCutoff: Date): Promise<number> {
  return recordMissing(
    runId,
    Prisma.sql`o."dateAdded" < ${graceCutoff} AND NOT (o.id = ANY(${seen}::uuid[]))`,
  );
}

/**
 * Items of a page that did not decode: drift items of kind `unreadable`, with the id when readable, the
 * decoder's reason and the item as received (`platformValue`: { reason, item }), the refused fields,
 * the page's traceID, and the mirror's status and amount when the operation is mirrored. An item already
 * recorded (the same id and the same item, any state) is not recorded again: an incremental run reads
 * the newest page every time. Text PostgreSQL cannot store is kept as U+FFFD.
 */
async function recordUnreadable(
  runId: string,
  items: UnreadableOperation[],
  sourceRef: string | null,
): Promise<number> {
  const rows = new Map<string, { operationId: string | null; fields: string[]; platformValue: object }>();
  for (const item of items) {
    const platformValue = { reason: item.reason, item: item.raw };
    rows.set(`${item.id}:${JSON.stringify(platformValue)}`, {
      operationId: item.id,
      fields: item.fields,
      platformValue,
    });
  }
  return getDb().$executeRaw`
    INSERT INTO "DriftItem" (id, "runId", "operationId", kind, fields, "mirrorValue", "platformValue", "sourceRef")
    SELECT gen_random_uuid(), ${runId}::uuid, u."operationId", 'unreadable', u.fields,
           CASE WHEN o.id IS NULL THEN NULL ELSE
             jsonb_build_object('status', o.status, 'amount', o.amount::text, 'dateAdded', o."dateAdded") END,
           u."platformValue", ${sourceRef}
    FROM jsonb_to_recordset(${storableJson([...rows.values()])}::jsonb)
           AS u("operationId" uuid, fields text[], "platformValue" jsonb)
    LEFT JOIN "Operation" o ON o.id = u."operationId"
    WHERE NOT EXISTS (
      SELECT 1 FROM "DriftItem" d
      WHERE d.kind = 'unreadable' AND d."platformValue" = u."platformValue"
        AND (d."operationId" = u."operationId" OR (d."operationId" IS NULL AND u."operationId" IS NULL)))`;
}

/** Open operations a read by id did not find. */
async function recordMissingById(runId: string, ids: string[]): Promise<number> {
  return ids.length === 0 ? 0 : recordMissing(runId, Prisma.sql`o.id = ANY(${ids}::uuid[])`);
}

/** Operations the platform does not have; one already recorded and not resolved yet is not recorded again. */
async function recordMissing(runId: string, where: Prisma.Sql): Promise<number> {
  return getDb().$executeRaw`
    INSERT INTO "DriftItem" (id, "runId", "operationId", kind, "mirrorValue")
    SELECT gen_random_uuid(), ${runId}::uuid, o.id, 'missingOnPlatform',
           jsonb_build_object('status', o.status, 'amount', o.amount::text, 'dateAdded', o."dateAdded")
    FROM "Operation" o
    WHERE ${where}
      AND NOT EXISTS (
        SELECT 1 FROM "DriftItem" d
        WHERE d."operationId" = o.id AND d.kind = 'missingOnPlatform' AND d.state <> 'resolved')`;
}
