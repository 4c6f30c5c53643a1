import "server-only";
import { getDb } from "@/lib/db";
import { getSettings, type Settings } from "@/lib/settings/settings";

/**
 * Retention of the two tables that grow with traffic: ApiCall (every platform call, masked bodies) and
 * WebhookDelivery (every webhook body). Rows older than their retention are deleted in bounded batches
 * (a short transaction each, so the inbox and the recorder never wait long), walking from the oldest row. Never deleted, whatever their age:
 *   - a webhook not processed yet (still in the inbox);
 *   - rows of an operation with a drift item not resolved yet (open or acknowledged: the evidence of the
 *     disagreement while someone looks into it);
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

const DAY_MS = 24 * 60 * 60 * 1000;
export const RETENTION_BATCH_SIZE = 5_000;
// One run stops after this long; the next run (hourly) carries on where the old rows still are.
const RUN_BUDGET_MS = 4 * 60 * 1000;

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
  at: "startedAt" | "receivedAt";
  /** Rows that may never go. */
  keep: string;
  /** Rows kept for the longer period. */
  longer: string;
};

const sweeps = {
  apiCalls: { table: "ApiCall", at: "startedAt", keep: protectedApiCall, longer: failedApiCall },
  webhooks: {
    table: "WebhookDelivery",
    at: "receivedAt",
    keep: `(s.outcome = 'received' OR s."processedAt" IS NULL OR ${protectedWebhook})`,
    longer: refusedWebhook,
  },
} satisfies Record<string, Sweep>;

/** Rows older than `normal` go, those kept longer only when older than `longer` (never the newer date). */
type Cutoffs = { normal: Date; longer: Date };

export type SweepResult = { scanned: number; deleted: number; batches: number; finished: boolean };
export type RetentionResult = Record<keyof typeof sweeps, SweepResult>;

/**
 * One sweep: batches of `batchSize` rows in time order (keyset on time and id, along the time index), each
 * deleting those past their retention and not protected, up to the shorter retention's cutoff (`normal`).
 */
async function sweep(
  s: Sweep,
  cutoffs: Cutoffs,
  options: { batchSize: number; deadline: number },
): Promise<SweepResult> {
  const db = getDb();
  const result: SweepResult = { scanned: 0, deleted: 0, batches: 0, finished: true };
  let afterAt = new Date(0);
  let afterId = 0n;
  for (;;) {
    if (Date.now() > options.deadline) return { ...result, finished: false };
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
    if (!batch || batch.lastAt === null || batch.lastId === null) return result;
    result.batches += 1;
    result.scanned += Number(batch.scanned);
    result.deleted += Number(batch.deleted);
    if (Number(batch.scanned) < options.batchSize) return result;
    afterAt = batch.lastAt;
    afterId = batch.lastId;
  }
}

/** Deletes what is past its retention (settings), in batches; the scheduled `retention` job calls it. */
export async function pruneExpiredRecords(
  options: { now?: Date; batchSize?: number; budgetMs?: number; settings?: Settings } = {},
): Promise<RetentionResult> {
  const now = (options.now ?? new Date()).getTime();
  const settings = options.settings ?? (await getSettings());
  const daysAgo = (days: number) => new Date(now - days * DAY_MS);
  // Saving a setting refuses a shorter period for the longer-kept rows (lib/settings); a pair stored
  // out of order all the same (by hand in the database) still keeps them as long as the rest.
  const cutoffs = (normalDays: number, longerDays: number): Cutoffs => ({
    normal: daysAgo(normalDays),
    longer: daysAgo(Math.max(normalDays, longerDays)),
  });
  const run = {
    batchSize: options.batchSize ?? RETENTION_BATCH_SIZE,
    deadline: Date.now() + (options.budgetMs ?? RUN_BUDGET_MS),
  };
  return {
    apiCalls: await sweep(
      sweeps.apiCalls,
      cutoffs(settings.apiCallRetentionDays, settings.failedApiCallRetentionDays),
      run,
    ),
    webhooks: await sweep(
      sweeps.webhooks,
      cutoffs(settings.webhookRetentionDays, settings.refusedWebhookRetentionDays),
      run,
    ),
  };
}
