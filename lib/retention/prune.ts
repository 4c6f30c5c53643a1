import "server-only";
import { getDb } from "@/lib/db";
import { retentionCutoffs, retentionPeriods } from "@/lib/settings/retention-periods";
import { getSettings, type Settings } from "@/lib/settings/settings";

/**
 * Retention of the two tables that grow with traffic: ApiCall (every platform call, masked bodies) and
 * WebhookDelivery (every webhook body). Rows older than their retention are deleted in bounded batches
 * (a short transaction each, so the inbox and the recorder never wait long), in time order: each run
 * resumes from where the last one stopped (a stored cursor), and starts from the oldest row again once a
 * sweep has reached its cutoff. Never deleted, whatever their age:
 *   - a webhook not processed yet (still in the inbox);
 *   - rows of an operation with a drift item not resolved yet (open or acknowledged: the evidence of the
 *     disagreement while someone looks into it);
 *   - the call a drift item not resolved yet names as its source (`sourceRef`, the traceID of the list
 *     page that carried the platform's values: for an item that did not decode, its only evidence);
 *   - rows of a pay-out (its operation, its idTransactionMerchant, its last traceID);
 *   - rows an audit entry points at (the row itself, or the operation the entry is about, by its id or,
 *     for a creation refused or lost before the operation had an id, by its idTransactionMerchant).
 * Issued statements point at none of these rows: each is frozen whole (its lines, totals, hash and the
 * bytes of each download), and its operations, their history and postings are never pruned. Keeping
 * every statement's call records would keep nearly all of them, a statement being issued every month.
 *
 * Why batches and not monthly partitions (both measured by `npm run bench -- retention`, 10,000,000 rows):
 * the lookups are as fast either way (on 5 partitions, each lookup probing all 5), and a month drops in
 * ~40 ms against ~20 ms a 5,000-row batch; but a month dropped whole takes with it what retention keeps
 * (a fifth of the bench's oldest month: failed calls, kept 365 days; and any row a pay-out, an
 * unresolved drift item or an audit entry points at, kept for ever), which would first have to be moved out.
 */

export const RETENTION_BATCH_SIZE = 5_000;
// Each table's sweep stops after this long (4 min a run for the two), and the next run (hourly) carries
// on where it stopped: the rows kept for ever at the head of a table are not scanned again at every run,
// and the calls never leave the webhook bodies without time.
const SWEEP_BUDGET_MS = 2 * 60 * 1000;

const protectedByOperation = (alias: string) => `(
  ${alias}."operationId" IS NOT NULL AND (
    EXISTS (SELECT 1 FROM "DriftItem" d WHERE d."operationId" = ${alias}."operationId" AND d.state <> 'resolved')
    OR EXISTS (SELECT 1 FROM "PayoutRequest" p WHERE p."operationId" = ${alias}."operationId")
    OR EXISTS (SELECT 1 FROM "AuditLog" a WHERE a."targetType" = 'operation' AND a."targetId" = ${alias}."operationId"::text)
  ))`;

// A pay-in or payment link refused or lost at creation is audited under its idTransactionMerchant
// (lib/payins/create.ts): its calls are kept by that id too (one probe of AuditLog's (targetType,
// targetId) index per scanned row, like the probes by operation id).
const protectedApiCall = `(
  ${protectedByOperation("s")}
  OR (s."idTransactionMerchant" IS NOT NULL
      AND EXISTS (SELECT 1 FROM "PayoutRequest" p WHERE p."idTransactionMerchant" = s."idTransactionMerchant"))
  OR (s."traceID" IS NOT NULL AND EXISTS (SELECT 1 FROM "PayoutRequest" p WHERE p."lastTraceID" = s."traceID"))
  OR (s."traceID" IS NOT NULL
      AND EXISTS (SELECT 1 FROM "DriftItem" d WHERE d."sourceRef" = s."traceID" AND d.state <> 'resolved'))
  OR (s."idTransactionMerchant" IS NOT NULL
      AND EXISTS (SELECT 1 FROM "AuditLog" a WHERE a."targetType" = 'operation' AND a."targetId" = s."idTransactionMerchant"))
  OR EXISTS (SELECT 1 FROM "AuditLog" a WHERE a."targetType" = 'apiCall' AND a."targetId" = s.id::text)
)`;

const protectedWebhook = `(
  ${protectedByOperation("s")}
  OR EXISTS (SELECT 1 FROM "AuditLog" a WHERE a."targetType" = 'webhookDelivery' AND a."targetId" = s.id::text)
)`;

// A call failed unless it got an HTTP 2xx with a "success" envelope and no transport error (SQL over
// the alias `s`).
export const failedApiCall = `NOT (s.error IS NULL AND s."httpStatus" BETWEEN 200 AND 299
  AND lower(btrim(coalesce(s."envelopeStatus", ''))) = 'success')`;
const refusedWebhook = `s.outcome IN ('rejected', 'malformed', 'disagreement', 'failed')`;

type Sweep = {
  table: "ApiCall" | "WebhookDelivery";
  /** The Setting row that keeps where the last run's sweep stopped. */
  cursorKey: string;
  at: "startedAt" | "receivedAt";
  /** Rows that may never go. */
  keep: string;
  /** Rows kept for the longer period. */
  longer: string;
};

const sweeps = {
  apiCalls: {
    table: "ApiCall",
    cursorKey: "retentionCursor.apiCalls",
    at: "startedAt",
    keep: protectedApiCall,
    longer: failedApiCall,
  },
  webhooks: {
    table: "WebhookDelivery",
    cursorKey: "retentionCursor.webhooks",
    at: "receivedAt",
    keep: `(s.outcome = 'received' OR s."processedAt" IS NULL OR ${protectedWebhook})`,
    longer: refusedWebhook,
  },
} satisfies Record<string, Sweep>;

/** Rows older than `normal` go, those kept longer only when older than `longer` (never the newer date). */
type Cutoffs = { normal: Date; longer: Date };

export type SweepResult = { scanned: number; deleted: number; batches: number; finished: boolean };
export type RetentionResult = Record<keyof typeof sweeps, SweepResult>;

/** Where a sweep goes on from: after this row (time and id); the start of the table when none is stored. */
type Cursor = { at: Date; id: bigint };
const START: Cursor = { at: new Date(0), id: 0n };

async function readCursor(key: string): Promise<Cursor> {
  const row = await getDb().setting.findUnique({ where: { key } });
  const value = row?.value as { at?: unknown; id?: unknown } | undefined;
  if (typeof value?.at !== "string" || typeof value.id !== "string" || !/^\d+$/.test(value.id)) return START;
  const at = new Date(value.at);
  return Number.isNaN(at.getTime()) ? START : { at, id: BigInt(value.id) };
}

/** Stores where the sweep stopped; a sweep that reached its cutoff starts from the oldest row next time. */
async function saveCursor(key: string, cursor: Cursor | null): Promise<void> {
  if (!cursor) {
    await getDb().setting.deleteMany({ where: { key } });
    return;
  }
  const value = { at: cursor.at.toISOString(), id: cursor.id.toString() };
  await getDb().setting.upsert({ where: { key }, create: { key, value }, update: { value } });
}

/**
 * One sweep: batches of `batchSize` rows in time order (keyset on time and id, along the time index), each
 * deleting those past their retention and not protected, up to the shorter retention's cutoff (`normal`).
 * It starts where the last run's sweep stopped at its budget (rows kept for ever are not scanned again
 * every run), and from the oldest row once a sweep has reached the cutoff (rows kept until then, their
 * drift item resolved since, go on that pass).
 */
async function sweep(
  s: Sweep,
  cutoffs: Cutoffs,
  options: { batchSize: number; budgetMs: number },
): Promise<SweepResult> {
  const db = getDb();
  const deadline = Date.now() + options.budgetMs;
  const result: SweepResult = { scanned: 0, deleted: 0, batches: 0, finished: true };
  const start = await readCursor(s.cursorKey);
  let afterAt = start.at;
  let afterId = start.id;
  for (;;) {
    if (Date.now() > deadline) {
      await saveCursor(s.cursorKey, { at: afterAt, id: afterId });
      return { ...result, finished: false };
    }
    const [batch] = await db.$queryRawUnsafe<
      { lastAt: Date | null; lastId: bigint | null; scanned: bigint; deleted: bigint }[]
    >(
      `WITH scanned AS (
         SELECT s.id, s."${s.at}" AS at FROM "${s.table}" s
         WHERE s."${s.at}" < $3 AND s."${s.at}" >= $1 AND (s."${s.at}", s.id) > ($1, $2)
         ORDER BY s."${s.at}", s.id LIMIT $4
       ), doomed AS (
         SELECT s.id FROM "${s.table}" s JOIN scanned USING (id)
         WHERE s."${s.at}" < (CASE WHEN ${s.longer} THEN $6::timestamptz ELSE $5::timestamptz END)
           AND NOT ${s.keep}
       ), gone AS (
         DELETE FROM "${s.table}" t USING doomed WHERE t.id = doomed.id RETURNING t.id
       ), last AS (
         SELECT at, id FROM scanned ORDER BY at DESC, id DESC LIMIT 1
       )
       SELECT (SELECT at FROM last) AS "lastAt", (SELECT id FROM last) AS "lastId",
              (SELECT count(*) FROM scanned) AS scanned, (SELECT count(*) FROM gone) AS deleted`,
      afterAt,
      afterId,
      cutoffs.normal,
      options.batchSize,
      cutoffs.normal,
      cutoffs.longer,
    );
    if (!batch || batch.lastAt === null || batch.lastId === null) break;
    result.batches += 1;
    result.scanned += Number(batch.scanned);
    result.deleted += Number(batch.deleted);
    if (Number(batch.scanned) < options.batchSize) break;
    afterAt = batch.lastAt;
    afterId = batch.lastId;
  }
  await saveCursor(s.cursorKey, null);
  return result;
}

/**
 * Deletes what is past its retention (settings), in batches; the scheduled `retention` job calls it.
 * `budgetMs` is each table's.
 */
export async function pruneExpiredRecords(
  options: { now?: Date; batchSize?: number; budgetMs?: number; settings?: Settings } = {},
): Promise<RetentionResult> {
  const now = options.now ?? new Date();
  const settings = options.settings ?? (await getSettings());
  const periods = retentionPeriods(settings);
  // Each sweep has its own budget: the calls never leave the webhook bodies without time.
  const run = {
    batchSize: options.batchSize ?? RETENTION_BATCH_SIZE,
    budgetMs: options.budgetMs ?? SWEEP_BUDGET_MS,
  };
  return {
    apiCalls: await sweep(sweeps.apiCalls, retentionCutoffs(periods.apiCalls, now), run),
    webhooks: await sweep(sweeps.webhooks, retentionCutoffs(periods.webhooks, now), run),
  };
}
