import "server-only";
import { poolQuery } from "@/lib/db";
import type { OperationStatus, WebhookOutcome } from "@/lib/generated/prisma/enums";

export type InboxRow = {
  sourceIp: string | null;
  headers: Record<string, string>;
  body: string;
  /** Stored as at most BODY_BYTES_MAX. */
  bodyBytes: number;
  outcome: WebhookOutcome;
  /** The note, as outcome-notes.ts stores it. */
  outcomeCode: string | null;
  outcomeArgs: object | null;
  operationId: string | null;
  operationStatus: OperationStatus | null;
  traceID: string | null;
  processedAt: Date | null;
};

type Pending = { row: InboxRow; resolve: (id: bigint) => void; reject: (error: unknown) => void };

const MAX_BATCH = 200;

/**
 * The most the INT4 column "bodyBytes" holds. A refused request's size may be its declared
 * Content-Length, up to 15 digits: stored as this much (its note keeps the declared number), never
 * failing the insert.
 */
export const BODY_BYTES_MAX = 2 ** 31 - 1;

const INSERT = `INSERT INTO "WebhookDelivery"
    ("sourceIp", headers, body, "bodyBytes", outcome, "outcomeCode", "outcomeArgs", "operationId", "operationStatus", "traceID", "processedAt")
  SELECT r."sourceIp", r.headers, r.body, r."bodyBytes", r.outcome, r."outcomeCode", r."outcomeArgs", r."operationId", r."operationStatus", r."traceID", r."processedAt"
  FROM json_populate_recordset(NULL::"WebhookDelivery", $1::json) WITH ORDINALITY AS r
  ORDER BY r.ordinality
  RETURNING id`;

let queue: Pending[] = [];
let flushing = false;

/**
 * Stores a received webhook and resolves once it is committed (the platform is answered only then).
 * Requests that arrive while a write is in flight are written together in the next statement — group
 * commit — so a burst costs one round trip and one commit per batch instead of one per webhook.
 */
export function storeInboxRow(row: InboxRow): Promise<bigint> {
  return new Promise((resolve, reject) => {
    queue.push({ row, resolve, reject });
    if (!flushing) void flush();
  });
}

async function flush(): Promise<void> {
  flushing = true;
  while (queue.length > 0) {
    const batch = queue.slice(0, MAX_BATCH);
    queue = queue.slice(batch.length);
    try {
      const ids = await insert(batch.map((p) => p.row));
      batch.forEach((p, i) => p.resolve(ids[i]!));
    } catch {
      // One unstorable row must not fail the others: store them one by one.
      for (const p of batch) await insert([p.row]).then((ids) => p.resolve(ids[0]!), p.reject);
    }
  }
  flushing = false;
}

// Plain pg (Prisma costs ~300 µs of CPU a statement, and turns the rows' JSON to JSON again); named: its
// plan does not depend on the table's size. pg gives the bigint id as its decimal text.
async function insert(rows: InboxRow[]): Promise<bigint[]> {
  const { rows: stored } = await poolQuery<{ id: string }>({
    name: "inbox-insert",
    text: INSERT,
    values: [JSON.stringify(rows.map(withStorableSize))],
  });
  if (stored.length !== rows.length) throw new Error(`stored ${stored.length} of ${rows.length} webhooks`);
  return stored.map((r) => BigInt(r.id));
}

function withStorableSize(row: InboxRow): InboxRow {
  return row.bodyBytes > BODY_BYTES_MAX ? { ...row, bodyBytes: BODY_BYTES_MAX } : row;
}
