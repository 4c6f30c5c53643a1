import "server-only";
import { translatorFor } from "@/lib/auth/translator";
import { getDb } from "@/lib/db";
import { copyColumn } from "@/lib/db-copy";
import { Prisma } from "@/lib/generated/prisma/client";
import { csvCell, csvLine } from "@/lib/csv/encode";
import { csvCellSql as cell } from "@/lib/csv/sql";
import type { OperationFilter } from "@/lib/operations/list/filter";
import { filterConditions, whereClause } from "@/lib/operations/list/where";

// Each CSV line is built by PostgreSQL and streamed out by COPY: the server passes bytes through
// without making a row object or a string per row (see the console section of `npm run bench`). The
// rules are those of csvCell (lib/csv), formatInZoneIso and maskNumber; the export tests compare them.

/** formatInZoneIso in SQL: the wall time in the zone, then the zone's UTC offset (in minutes) at that time. */
function inZone(column: string, zone: string, offsetMinutes: string): string {
  return (
    `to_char(${column} AT TIME ZONE ${zone}, 'YYYY-MM-DD"T"HH24:MI:SS.MS') || ` +
    `CASE WHEN ${offsetMinutes} < 0 THEN '-' ELSE '+' END || lpad((abs(${offsetMinutes}) / 60)::text, 2, '0') || ` +
    `':' || lpad((abs(${offsetMinutes}) % 60)::text, 2, '0')`
  );
}

const offsetMinutes = (column: string, zone: string) =>
  `round(extract(epoch FROM (${column} AT TIME ZONE ${zone}) - (${column} AT TIME ZONE 'UTC')) / 60)::int`;
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
    plain(inZone(`o."dateAdded"`, "z.tz", "z.added")),
    plain(utc(`o."dateAdded"`)),
    plain(inZone(`o."dateUpdated"`, "z.tz", "z.updated")),
    plain(utc(`o."dateUpdated"`)),
    cell(`COALESCE(o."paymentMethod", p."paymentMethod")`, { text: true }),
    cell(`COALESCE(o."detailsBankName", p."bankName")`, { text: true }),
    cell(masked(`COALESCE(o."detailsNumber", p."recipientNumber")`)),
    cell("o.currency", { text: true }),
    plain(decimal(`o."amountInitial"`)),
    plain(decimal("o.amount")),
    plain(decimal(`o."amountComission"`)),
    cell(`CASE WHEN o."amountInCurrencyBalance" IS NULL THEN NULL ELSE z."balanceCurrency" END`),
    plain(decimal(`o."amountInCurrencyBalance"`)),
    plain(decimal(`o."amountComissionInCurrencyBalance"`)),
    plain(decimal(`o."exchangeRate"`)),
  ].join(` || ',' || `) + ` || E'\\r\\n'`,
);

/** Per row, computed once: the zone's offset at dateAdded and at dateUpdated. */
const OFFSETS = Prisma.raw(
  `${offsetMinutes(`o."dateAdded"`, "settings.tz")} AS added, ` +
    `${offsetMinutes(`o."dateUpdated"`, "settings.tz")} AS updated`,
);

/**
 * Every operation matching the filter as CSV, newest first, streamed by PostgreSQL's COPY so memory
 * stays flat however many rows there are. Amounts are the database's exact decimal text;
 * payment-currency and balance-currency amounts are separate columns; dates in the chosen zone (with
 * offset) and in UTC.
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
  yield* copyColumn(Prisma.sql`
    SELECT ${LINE}
    FROM "Operation" o LEFT JOIN "PayoutRequest" p ON p."operationId" = o.id
      CROSS JOIN (SELECT ${filter.tz}::text AS tz, ${balanceCurrency}::text AS "balanceCurrency") settings
      CROSS JOIN LATERAL (SELECT settings.*, ${OFFSETS}) z
    ${where}
    ORDER BY o."dateAdded" DESC, o.id DESC`);
}

/** True when the database knows the zone the export writes dates in (its zone list is its own). */
export async function databaseKnowsZone(tz: string): Promise<boolean> {
  const rows = await getDb().$queryRaw<unknown[]>`SELECT 1 FROM pg_timezone_names WHERE name = ${tz}`;
  return rows.length > 0;
}
