import "server-only";
import type { PoolTransaction } from "@/lib/db";
import { copyText } from "@/lib/db-copy-text";
import type { OperationStatus, SnapshotSource } from "@/lib/generated/prisma/enums";
import type { Operation } from "@/lib/platform/schemas";
import { MIRRORED_FIELDS } from "@/lib/operations/mirror/mirror-fields";
import { snapshotToRow, type KeptValues } from "@/lib/operations/mirror/snapshot-row";
import { FINAL_STATUSES_SQL } from "@/lib/operations/status";
import { storableJsonText } from "@/lib/storable-text";

/*
 * The mirror's writes on a plain pg connection, for applySnapshot and its batch form (which first take
 * the operations' locks and read them: lockAndReadMirrorStates). A batch's many new rows go by COPY;
 * every other write is prepared once per connection (a named query) rather than parsed and planned
 * for every webhook: safe for these because their plans do not depend on how many rows the tables hold.
 * A query that reads a table by a condition must not be named: PostgreSQL may keep a plan made while
 * the table was empty (a sequential scan) for the connection's life
 * (tests/integration/db/prepared-plans.test.ts).
 */

// Every column of a mirrored row: the id, the mirrored fields, the snapshot and Paydesk's own bookkeeping.
const COLUMNS = [
  "id",
  ...MIRRORED_FIELDS,
  "raw",
  "lastSource",
  "snapshotReceivedAt",
  "firstSeenAt",
  "mirroredAt",
  "stuckFlaggedAt",
] as const;
// Above this many rows a COPY costs less than its extra round trip (a named statement is one). Measured
// for history rows: 10 rows 0.50 ms by INSERT, 0.55 ms by COPY; 30 rows 0.85 against 0.80.
export const COPY_FROM_ROWS = 20;
const KEPT_ON_UPDATE = new Set(["id", "firstSeenAt", "stuckFlaggedAt"]);
const quoted = COLUMNS.map((c) => `"${c}"`).join(", ");
const updates = COLUMNS.filter((c) => !KEPT_ON_UPDATE.has(c))
  .map((c) => `"${c}" = EXCLUDED."${c}"`)
  .concat(
    `"stuckFlaggedAt" = CASE WHEN EXCLUDED.status IN (${FINAL_STATUSES_SQL}) THEN NULL ELSE "Operation"."stuckFlaggedAt" END`,
  )
  .join(", ");

const UPSERT = `INSERT INTO "Operation" (${quoted})
  SELECT ${quoted} FROM json_populate_recordset(NULL::"Operation", $1::json)
  ON CONFLICT (id) DO UPDATE SET ${updates}`;

const COPY_NEW = `COPY "Operation" (${quoted}) FROM STDIN`;
const JSON_COLUMNS = new Set(["detailsNumberAdditional", "detailsQrCode", "raw"]);

const HISTORY_COLUMNS = [
  "operationId",
  "fromStatus",
  "toStatus",
  "source",
  "sourceRef",
  "platformDateUpdated",
] as const;
const historyQuoted = HISTORY_COLUMNS.map((c) => `"${c}"`).join(", ");
const INSERT_HISTORY = `INSERT INTO "OperationStatusChange" (${historyQuoted})
  SELECT ${historyQuoted} FROM json_populate_recordset(NULL::"OperationStatusChange", $1::json)`;
const COPY_HISTORY = `COPY "OperationStatusChange" (${historyQuoted}) FROM STDIN`;

export type StatusChangeRow = {
  operationId: string;
  fromStatus: OperationStatus | null;
  toStatus: OperationStatus;
  source: SnapshotSource;
  sourceRef: string | null;
  /** ISO text, for the same reason as MirrorRowJson's timestamps. */
  platformDateUpdated: string | null;
};

/** The history row for a snapshot the mirror takes, or null when the status stays as it was. */
export function statusChangeOf(
  op: Operation,
  fromStatus: OperationStatus | null,
  source: SnapshotSource,
  sourceRef: string | null,
): StatusChangeRow | null {
  if (fromStatus === op.status) return null;
  return {
    operationId: op.id,
    fromStatus,
    toStatus: op.status,
    source,
    sourceRef,
    platformDateUpdated: op.dateUpdated?.toISOString() ?? null,
  };
}

/** A mirrored row as sent to json_populate_recordset or COPY: its timestamps already ISO text. */
export type MirrorRowJson = Omit<ReturnType<typeof snapshotToRow>, "dateAdded" | "dateUpdated"> & {
  dateAdded: string;
  dateUpdated: string | null;
  snapshotReceivedAt: string;
  firstSeenAt: string;
  mirroredAt: string;
  stuckFlaggedAt: null;
};

/**
 * The stored row for a snapshot the mirror takes. On an update the first sighting and the stuck flag
 * stay (the flag is cleared by a final status); `now` is the mirroring time.
 *
 * Built for the one JSON.stringify of a page's rows, which costs twice as much when it meets a Date
 * (its toJSON takes V8 off the fast path); and by Object.assign rather than a spread of snapshotToRow's
 * fields, which took 9 ms a page of 1,000 against 0.6 ms.
 */
export function mirrorRow(
  op: Operation,
  source: SnapshotSource,
  options: { paymentMethod: string | null; kept: KeptValues | null; receivedAt: Date; now: string },
): MirrorRowJson {
  return Object.assign(snapshotToRow(op, source, options.paymentMethod, options.kept), {
    dateAdded: op.dateAdded.toISOString(),
    dateUpdated: op.dateUpdated?.toISOString() ?? null,
    snapshotReceivedAt: options.receivedAt.toISOString(),
    firstSeenAt: options.now,
    mirroredAt: options.now,
    stuckFlaggedAt: null,
  });
}

/**
 * Inserts or updates the rows: one upsert, whatever their number. `mirrored`, when given, holds the
 * ids of the rows' operations the mirror has, as read under their locks (lockAndReadMirrorStates).
 * The others then go in by COPY when they are many: 26 ms of PostgreSQL's time for a page of 1,000
 * against 38 ms by the upsert (no JSON to parse, no conflict to look for). Every writer of an operation holds
 * its lock, so none can have inserted one of them since; were that ever broken, the primary key fails
 * the COPY and with it the transaction: nothing is written twice.
 * Text PostgreSQL cannot store (U+0000, a lone surrogate) in a snapshot is stored as U+FFFD, by the
 * upsert and the COPY alike (lib/storable-text.ts): one such item never fails its page.
 */
export async function writeMirrorRows(
  tx: PoolTransaction,
  rows: MirrorRowJson[],
  mirrored?: ReadonlyMap<string, unknown>,
): Promise<void> {
  const fresh: MirrorRowJson[] = [];
  const known: MirrorRowJson[] = [];
  for (const row of rows) (mirrored && !mirrored.has(row.id) ? fresh : known).push(row);
  if (fresh.length > COPY_FROM_ROWS) {
    await tx.copyFrom(COPY_NEW, copyText(fresh, COLUMNS, JSON_COLUMNS));
    rows = known;
  }
  if (rows.length > 0)
    await tx.query({ name: "mirror-upsert", text: UPSERT, values: [storableJsonText(JSON.stringify(rows))] });
}

/** Appends history rows: one statement for a few, a COPY for a batch's (no JSON to parse). */
export async function writeStatusChanges(tx: PoolTransaction, changes: StatusChangeRow[]): Promise<void> {
  if (changes.length > COPY_FROM_ROWS) await tx.copyFrom(COPY_HISTORY, copyText(changes, HISTORY_COLUMNS));
  else if (changes.length > 0)
    await tx.query({
      name: "mirror-history",
      text: INSERT_HISTORY,
      values: [storableJsonText(JSON.stringify(changes))],
    });
}
