import "server-only";
import { translatorFor } from "@/lib/auth/translator";
import { getDb } from "@/lib/db";
import { copyColumn } from "@/lib/db-copy";
import { Prisma } from "@/lib/generated/prisma/client";
import { csvCell, csvLine } from "@/lib/csv/encode";
import { csvCellSql as cell } from "@/lib/csv/sql";
import type { OperationFilter } from "@/lib/operations/list/filter";
import { filterConditions, whereClause } from "@/lib/operations/list/where";
import { offsetSegments, type OffsetSegment } from "@/lib/time/local-days";

const YEAR_MS = 366 * 86_400_000;

// Each CSV line is built by PostgreSQL and streamed out by COPY: the server passes bytes through
// without making a row object or a string per row (see the console section of `npm run bench`). The
// rules are those of csvCell (lib/csv), formatInZoneIso and maskNumber; the export tests compare them.

/**
 * formatInZoneIso in SQL, with Node's zone data (PostgreSQL's own may differ: lib/time/local-days.ts):
 * UTC shifted by the offset of the row's segment, then the offset as Node writes it.
 */
const inZone = (column: string, segment: string) =>
  `to_char((${column} AT TIME ZONE 'UTC') + make_interval(secs => zone.seconds[${segment}]), ` +
  `'YYYY-MM-DD"T"HH24:MI:SS.MS') || zone.labels[${segment}]`;
const utc = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const masked = (column: string) =>
  `CASE WHEN length(${column}) > 4 THEN repeat('*', length(${column}) - 4) || right(${column}, 4) ELSE repeat('*', length(${column})) END`;
const decimal = (column: string) => `trim_scale(${column})::text`;

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

/**
 * The column titles in the reader's language, in the order of exportHeader, for people opening the
 * file in a spreadsheet (the export's `header=language`); scripts keep the field names above.
 */
export async function localizedExportHeader(): Promise<string[]> {
  const t = await translatorFor("operations.export.column");
  return exportHeader.map((key) => t(key));
}

/** A cell whose text can never need quoting (ids, enums, dates, decimals); "" for NULL. */
const plain = (expression: string) => `COALESCE(${expression}, '')`;

/** One CSV line per row, in the order of exportHeader. */
const LINE = Prisma.raw(
  [
    plain("o.id::text"),
    cell(`o."idTransactionMerchant"`, { text: true }),
    plain(`o."typeOperation"::text`),
    plain("o.status::text"),
    plain(inZone(`o."dateAdded"`, "segment.added")),
    plain(utc(`o."dateAdded"`)),
    plain(inZone(`o."dateUpdated"`, "segment.updated")),
    plain(utc(`o."dateUpdated"`)),
    cell(`COALESCE(o."paymentMethod", p."paymentMethod")`, { text: true }),
    cell(`COALESCE(o."detailsBankName", p."bankName")`, { text: true }),
    cell(masked(`COALESCE(o."detailsNumber", p."recipientNumber")`)),
    cell("o.currency", { text: true }),
    plain(decimal(`o."amountInitial"`)),
    plain(decimal("o.amount")),
    plain(decimal(`o."amountComission"`)),
    cell(`CASE WHEN o."amountInCurrencyBalance" IS NULL THEN NULL ELSE zone."balanceCurrency" END`),
    plain(decimal(`o."amountInCurrencyBalance"`)),
    plain(decimal(`o."amountComissionInCurrencyBalance"`)),
    plain(decimal(`o."exchangeRate"`)),
  ].join(` || ',' || `) + ` || E'\\r\\n'`,
);

/**
 * Per row, computed once: the offset segment of dateAdded and of dateUpdated. An instant before the
 * first segment (a dateUpdated earlier than every dateAdded) takes the first one's offset.
 */
const SEGMENTS = Prisma.raw(
  `GREATEST(width_bucket(o."dateAdded", zone.starts), 1) AS added, ` +
    `GREATEST(width_bucket(o."dateUpdated", zone.starts), 1) AS updated`,
);

/**
 * The zone's offsets over every date the mirror holds: from its first dateAdded to a year past its last
 * one or now, whichever is later (two ends of the dateAdded index). A dateUpdated lies between, unless
 * the platform dated an update before its operation's creation: that takes the first offset.
 */
async function mirrorOffsetSegments(tz: string): Promise<OffsetSegment[]> {
  const [span] = await getDb().$queryRaw<{ first: Date | null; last: Date | null }[]>`
    SELECT min("dateAdded") AS first, max("dateAdded") AS last FROM "Operation"`;
  const now = Date.now();
  const last = Math.max(now, span?.last?.getTime() ?? now);
  return offsetSegments({ from: span?.first ?? new Date(now), to: new Date(last + YEAR_MS), tz });
}

/**
 * Every operation matching the filter as CSV, newest first, streamed by PostgreSQL's COPY so memory
 * stays flat however many rows there are. Amounts are the database's exact decimal text;
 * payment-currency and balance-currency amounts are separate columns; dates in the chosen zone (with
 * offset, by Node's zone data as on screen) and in UTC.
 */
export async function* exportOperationsCsv(
  filter: OperationFilter,
  balanceCurrency: string | null,
  header: readonly string[] = exportHeader,
): AsyncGenerator<Uint8Array> {
  // Titles in a language get a byte order mark: spreadsheets then read the file as UTF-8.
  const bom = header === exportHeader ? "" : "\uFEFF";
  yield Buffer.from(bom + csvLine(header.map((title) => csvCell(title, { text: true }))));
  const where = whereClause(await filterConditions(filter));
  const segments = await mirrorOffsetSegments(filter.tz);
  yield* copyColumn(Prisma.sql`
    SELECT ${LINE}
    FROM "Operation" o LEFT JOIN "PayoutRequest" p ON p."operationId" = o.id
      CROSS JOIN (SELECT ${balanceCurrency}::text AS "balanceCurrency",
        ${segments.map((s) => s.start.toISOString())}::timestamptz[] AS starts,
        ${segments.map((s) => s.offsetSeconds)}::int[] AS seconds,
        ${segments.map((s) => s.label)}::text[] AS labels) zone
      CROSS JOIN LATERAL (SELECT ${SEGMENTS}) segment
    ${where}
    ORDER BY o."dateAdded" DESC, o.id DESC`);
}
