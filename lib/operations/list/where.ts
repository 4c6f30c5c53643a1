import "server-only";
import { Prisma } from "@/lib/generated/prisma/client";
import type { Cursor } from "./cursor";
import type { OperationFilter } from "./filter";
import { searchCondition } from "./search";
import { FINAL_STATUSES_SQL } from "@/lib/operations/status";

export type WhereOptions = {
  /** Counts per status show every status of the other filters. */
  ignoreStatus?: boolean;
};

/** The SQL conditions on `"Operation" o` for a filter (without paging). */
export async function filterConditions(
  filter: OperationFilter,
  options: WhereOptions = {},
): Promise<Prisma.Sql[]> {
  const c: Prisma.Sql[] = [];
  if (filter.type) c.push(Prisma.sql`o."typeOperation" = ${filter.type}::"OperationType"`);
  if (filter.statuses.length && !options.ignoreStatus) {
    const list = Prisma.join(filter.statuses.map((s) => Prisma.sql`${s}::"OperationStatus"`));
    c.push(Prisma.sql`o.status IN (${list})`);
  }
  if (filter.method) c.push(Prisma.sql`o."paymentMethod" = ${filter.method}`);
  if (filter.currency) c.push(Prisma.sql`o.currency = ${filter.currency}`);
  if (filter.dateFrom) c.push(Prisma.sql`o."dateAdded" >= ${filter.dateFrom.toISOString()}::timestamptz`);
  if (filter.dateTo) c.push(Prisma.sql`o."dateAdded" < ${filter.dateTo.toISOString()}::timestamptz`);
  if (filter.amountMin) c.push(Prisma.sql`o.amount >= ${filter.amountMin}::numeric`);
  if (filter.amountMax) c.push(Prisma.sql`o.amount <= ${filter.amountMax}::numeric`);
  if (filter.stuck) {
    // Flagged by lib/operations/stuck.ts; a final status clears the flag, the status check makes sure.
    c.push(
      Prisma.sql`o."stuckFlaggedAt" IS NOT NULL AND o.status NOT IN (${Prisma.raw(FINAL_STATUSES_SQL)})`,
    );
  }
  if (filter.q) c.push(await searchCondition(filter.q));
  return c;
}

/** Rows strictly after the cursor in the list order (dateAdded DESC, id DESC). */
export function afterCursor(cursor: Cursor): Prisma.Sql {
  return Prisma.sql`(o."dateAdded", o.id) < (${cursor.dateAdded.toISOString()}::timestamptz, ${cursor.id}::uuid)`;
}

/** Rows strictly before the cursor in the list order. */
export function beforeCursor(cursor: Cursor): Prisma.Sql {
  return Prisma.sql`(o."dateAdded", o.id) > (${cursor.dateAdded.toISOString()}::timestamptz, ${cursor.id}::uuid)`;
}

export function whereClause(conditions: Prisma.Sql[]): Prisma.Sql {
  return conditions.length ? Prisma.sql`WHERE ${Prisma.join(conditions, " AND ")}` : Prisma.empty;
}
