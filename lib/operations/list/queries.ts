import "server-only";
import { getDb } from "@/lib/db";
import type { OperationAmountsText } from "@/lib/operations/amount-text";
import { Prisma } from "@/lib/generated/prisma/client";
import type { OperationStatus, OperationType } from "@/lib/platform/schemas";
import { OPERATION_STATUSES } from "@/lib/platform/schemas";
import { encodeCursor, type Cursor } from "./cursor";
import type { OperationFilter } from "./filter";
import { afterCursor, beforeCursor, filterConditions, whereClause } from "./where";

/** One list row as SQL returns it: amounts as exact decimal text, never numbers. */
export type OperationListRow = OperationAmountsText & {
  id: string;
  dateAdded: Date;
  dateUpdated: Date | null;
  typeOperation: OperationType;
  status: OperationStatus;
  idTransactionMerchant: string;
  paymentMethod: string | null;
  bankName: string | null;
  number: string | null;
  stuckFlaggedAt: Date | null;
};

export type OperationPage = {
  rows: OperationListRow[];
  /** Cursor for the next (older) page; null on the last page. */
  nextCursor: string | null;
  /** Cursor for the previous (newer) page; null on the first page. */
  prevCursor: string | null;
};

const listColumns = Prisma.sql`
  o.id::text AS id, o."dateAdded", o."dateUpdated", o."typeOperation"::text AS "typeOperation",
  o.status::text AS status, o."idTransactionMerchant", trim_scale(o.amount)::text AS amount,
  trim_scale(o."amountComission")::text AS "amountComission", o.currency,
  trim_scale(o."amountInCurrencyBalance")::text AS "amountInCurrencyBalance",
  trim_scale(o."amountComissionInCurrencyBalance")::text AS "amountComissionInCurrencyBalance",
  trim_scale(o."exchangeRate")::text AS "exchangeRate", COALESCE(o."paymentMethod", p."paymentMethod") AS "paymentMethod",
  COALESCE(o."detailsBankName", p."bankName") AS "bankName",
  COALESCE(o."detailsNumber", p."recipientNumber") AS number, o."stuckFlaggedAt"`;

const fromOperations = Prisma.sql`FROM "Operation" o LEFT JOIN "PayoutRequest" p ON p."operationId" = o.id`;

const cursorOf = (row: OperationListRow): Cursor => ({ dateAdded: row.dateAdded, id: row.id });

/**
 * One page of the mirror, newest first, by keyset on (dateAdded, id): every row is reachable and none
 * repeats, also while new operations arrive. `after` pages towards older rows, `before` towards newer.
 */
export async function listOperations(filter: OperationFilter): Promise<OperationPage> {
  const conditions = await filterConditions(filter);
  const limit = filter.size + 1;
  const db = getDb();
  if (filter.before) {
    const rows = await db.$queryRaw<OperationListRow[]>`
      SELECT ${listColumns} ${fromOperations}
      ${whereClause([...conditions, beforeCursor(filter.before)])}
      ORDER BY o."dateAdded" ASC, o.id ASC LIMIT ${limit}`;
    const hasNewer = rows.length > filter.size;
    const page = rows.slice(0, filter.size).reverse();
    return {
      rows: page,
      prevCursor: hasNewer && page[0] ? encodeCursor(cursorOf(page[0])) : null,
      nextCursor: page.length ? encodeCursor(cursorOf(page[page.length - 1]!)) : null,
    };
  }
  const rows = await db.$queryRaw<OperationListRow[]>`
    SELECT ${listColumns} ${fromOperations}
    ${whereClause(filter.after ? [...conditions, afterCursor(filter.after)] : conditions)}
    ORDER BY o."dateAdded" DESC, o.id DESC LIMIT ${limit}`;
  const hasOlder = rows.length > filter.size;
  const page = rows.slice(0, filter.size);
  return {
    rows: page,
    nextCursor: hasOlder ? encodeCursor(cursorOf(page[page.length - 1]!)) : null,
    prevCursor: filter.after && page[0] ? encodeCursor(cursorOf(page[0])) : null,
  };
}

export type StatusCounts = Record<OperationStatus, number> & { total: number };

/** How many operations match the filter in each status (the status filter itself is left out). */
export async function countByStatus(filter: OperationFilter): Promise<StatusCounts> {
  const conditions = await filterConditions(filter, { ignoreStatus: true });
  const rows = await getDb().$queryRaw<Array<{ status: OperationStatus; n: number }>>`
    SELECT o.status::text AS status, count(*)::int AS n FROM "Operation" o
    ${whereClause(conditions)} GROUP BY o.status`;
  const counts = Object.fromEntries(OPERATION_STATUSES.map((s) => [s, 0])) as StatusCounts;
  counts.total = 0;
  for (const row of rows) {
    counts[row.status] = row.n;
    counts.total += row.n;
  }
  return counts;
}

/** Operations matching the filter that are newer than the cursor, counted up to `cap`. */
export async function countNewer(
  filter: OperationFilter,
  cursor: Cursor,
  cap = 1000,
): Promise<{ count: number; capped: boolean }> {
  const conditions = [...(await filterConditions(filter)), beforeCursor(cursor)];
  const [row] = await getDb().$queryRaw<Array<{ n: number }>>`
    SELECT count(*)::int AS n FROM (SELECT 1 FROM "Operation" o ${whereClause(conditions)} LIMIT ${cap + 1}) t`;
  const n = row?.n ?? 0;
  return { count: Math.min(n, cap), capped: n > cap };
}

/** The current state of the given operations (live refresh of the rows a user is looking at). */
export async function operationsByIds(ids: string[]): Promise<OperationListRow[]> {
  if (ids.length === 0) return [];
  const list = Prisma.join(ids.map((id) => Prisma.sql`${id}::uuid`));
  return getDb().$queryRaw<OperationListRow[]>`
    SELECT ${listColumns} ${fromOperations} WHERE o.id IN (${list})`;
}
