import "server-only";
import { getDb } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { formatInZoneIso } from "@/lib/time/zone";
import { csvCell, csvLine } from "./csv";
import type { OperationFilter } from "./filter";
import { maskNumber } from "./mask";
import { afterCursor, filterConditions, whereClause } from "./where";

const BATCH = 2_000;

type ExportRow = {
  id: string;
  dateAdded: Date;
  dateUpdated: Date | null;
  typeOperation: string;
  status: string;
  idTransactionMerchant: string;
  paymentMethod: string | null;
  bankName: string | null;
  number: string | null;
  currency: string;
  amountInitial: string;
  amount: string;
  amountComission: string | null;
  amountInCurrencyBalance: string | null;
  amountComissionInCurrencyBalance: string | null;
  exchangeRate: string | null;
};

export const exportHeader = [
  "id",
  "idTransactionMerchant",
  "typeOperation",
  "status",
  "dateAdded",
  "dateAddedUtc",
  "dateUpdated",
  "dateUpdatedUtc",
  "paymentMethod",
  "bankName",
  "recipientNumber",
  "currency",
  "amountInitial",
  "amount",
  "amountComission",
  "currencyBalance",
  "amountInCurrencyBalance",
  "amountComissionInCurrencyBalance",
  "exchangeRate",
] as const;

function toLine(row: ExportRow, tz: string, balanceCurrency: string | null): string {
  return csvLine([
    csvCell(row.id),
    csvCell(row.idTransactionMerchant, { text: true }),
    csvCell(row.typeOperation),
    csvCell(row.status),
    csvCell(formatInZoneIso(row.dateAdded, tz)),
    csvCell(row.dateAdded.toISOString()),
    csvCell(row.dateUpdated ? formatInZoneIso(row.dateUpdated, tz) : null),
    csvCell(row.dateUpdated?.toISOString() ?? null),
    csvCell(row.paymentMethod, { text: true }),
    csvCell(row.bankName, { text: true }),
    csvCell(row.number === null ? null : maskNumber(row.number)),
    csvCell(row.currency, { text: true }),
    csvCell(row.amountInitial),
    csvCell(row.amount),
    csvCell(row.amountComission),
    csvCell(row.amountInCurrencyBalance === null ? null : balanceCurrency),
    csvCell(row.amountInCurrencyBalance),
    csvCell(row.amountComissionInCurrencyBalance),
    csvCell(row.exchangeRate),
  ]);
}

/**
 * Every operation matching the filter as CSV lines, newest first, read in keyset batches so memory stays
 * flat however many rows there are. Amounts are the database's exact decimal text; payment-currency and
 * balance-currency amounts are separate columns; dates in the chosen zone (with offset) and in UTC.
 */
export async function* exportOperationsCsv(
  filter: OperationFilter,
  balanceCurrency: string | null,
): AsyncGenerator<string> {
  yield csvLine([...exportHeader]);
  const conditions = await filterConditions(filter);
  const db = getDb();
  let cursor: { dateAdded: Date; id: string } | null = null;
  for (;;) {
    const where = whereClause(cursor ? [...conditions, afterCursor(cursor)] : conditions);
    const rows: ExportRow[] = await db.$queryRaw<ExportRow[]>`
      SELECT o.id::text AS id, o."dateAdded", o."dateUpdated", o."typeOperation"::text AS "typeOperation",
        o.status::text AS status, o."idTransactionMerchant",
        COALESCE(o."paymentMethod", p."paymentMethod") AS "paymentMethod",
        COALESCE(o."detailsBankName", p."bankName") AS "bankName",
        COALESCE(o."detailsNumber", p."recipientNumber") AS number, o.currency,
        trim_scale(o."amountInitial")::text AS "amountInitial", trim_scale(o.amount)::text AS amount,
        trim_scale(o."amountComission")::text AS "amountComission",
        trim_scale(o."amountInCurrencyBalance")::text AS "amountInCurrencyBalance",
        trim_scale(o."amountComissionInCurrencyBalance")::text AS "amountComissionInCurrencyBalance",
        trim_scale(o."exchangeRate")::text AS "exchangeRate"
      FROM "Operation" o LEFT JOIN "PayoutRequest" p ON p."operationId" = o.id
      ${where}
      ORDER BY o."dateAdded" DESC, o.id DESC LIMIT ${Prisma.raw(String(BATCH))}`;
    if (rows.length === 0) return;
    yield rows.map((r) => toLine(r, filter.tz, balanceCurrency)).join("");
    if (rows.length < BATCH) return;
    const last = rows[rows.length - 1]!;
    cursor = { dateAdded: last.dateAdded, id: last.id };
  }
}

/** A byte stream of the export that reads the next batch only when the client has taken the last. */
export function csvStream(lines: AsyncGenerator<string>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await lines.next();
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(next.value));
      } catch (error) {
        controller.error(error);
      }
    },
    async cancel() {
      await lines.return(undefined);
    },
  });
}
