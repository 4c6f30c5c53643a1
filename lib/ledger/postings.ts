import "server-only";
import { z } from "zod";
import { Prisma } from "@/lib/generated/prisma/client";
import { IN_LEDGER_CURRENCY, ledgerBalanceBefore } from "@/lib/ledger/balance";
import { postingKinds, type PostingKind } from "@/lib/ledger/rules";
import { inLedgerSnapshot, type LedgerReader } from "@/lib/ledger/snapshot";
import type { StatementPeriod } from "@/lib/ledger/statement";
import { Decimal } from "@/lib/money/decimal";
import { isDateOnly } from "@/lib/time/zone";

/** One line of a statement: a posting (or a movement outside operations) and the balance after it. */
export type StatementPosting = {
  at: string;
  kind: PostingKind | "outside";
  /** Effect on the available balance, balance currency. */
  amount: string;
  holdDelta: string;
  /** Available balance after this line. */
  balance: string;
  /** The operation's id, or the movement's id for a movement outside operations. */
  key: string;
  idTransactionMerchant: string | null;
  typeOperation: string | null;
  status: string | null;
  paymentMethod: string | null;
  /** The operation's amount in its payment currency (reference only) and that currency. */
  amountPayment: string | null;
  currencyPayment: string | null;
  exchangeRate: string | null;
  counterparty: string | null;
  bankName: string | null;
  /** For a movement outside operations: its annotation (kind, reference, note). */
  movementKind: string | null;
  reference: string | null;
  note: string | null;
};

const kindOrder = [...postingKinds, "outside"] as const;
const cursorSchema = z.object({
  // A forged year 0000 would fail the query itself (PostgreSQL has no year 0).
  at: z.iso.datetime().refine((at) => isDateOnly(at.slice(0, 10))),
  key: z.uuid(),
  kind: z.enum(kindOrder),
});
export type PostingCursor = z.infer<typeof cursorSchema>;

export function encodeCursor(c: PostingCursor): string {
  return Buffer.from(JSON.stringify(c)).toString("base64url");
}

export function decodeCursor(text: string): PostingCursor | null {
  try {
    const parsed = cursorSchema.safeParse(JSON.parse(Buffer.from(text, "base64url").toString("utf8")));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

type Row = Omit<StatementPosting, "balance" | "at"> & { at: Date };

const iso = (d: Date) => d.toISOString();

function compare(a: { at: Date; key: string; kind: string }, b: { at: Date; key: string; kind: string }) {
  return (
    a.at.getTime() - b.at.getTime() ||
    (a.key < b.key ? -1 : a.key > b.key ? 1 : 0) ||
    kindOrder.indexOf(a.kind as PostingKind) - kindOrder.indexOf(b.kind as PostingKind)
  );
}

async function rowsAfter(
  p: StatementPeriod,
  cursor: PostingCursor | null,
  limit: number,
  db: LedgerReader,
): Promise<Row[]> {
  const postingAfter = !cursor
    ? Prisma.empty
    : cursor.kind === "outside"
      ? Prisma.sql`AND (p.at, p."operationId") > (${cursor.at}::timestamptz, ${cursor.key}::uuid)`
      : Prisma.sql`AND (p.at, p."operationId", p.kind) >
          (${cursor.at}::timestamptz, ${cursor.key}::uuid, ${cursor.kind}::"LedgerPostingKind")`;
  const movementAfter = cursor
    ? Prisma.sql`AND ("windowTo", id) > (${cursor.at}::timestamptz, ${cursor.key}::uuid)`
    : Prisma.empty;
  const [postings, movements] = await Promise.all([
    db.$queryRaw<Row[]>`
      SELECT p.at, p."operationId"::text AS key, p.kind::text AS kind, p.amount::text AS amount,
        p."holdDelta"::text AS "holdDelta", o."idTransactionMerchant", o."typeOperation"::text AS "typeOperation",
        o.status::text AS status, o."paymentMethod", o.amount::text AS "amountPayment",
        o.currency AS "currencyPayment", trim_scale(o."exchangeRate")::text AS "exchangeRate",
        COALESCE(r."recipientName", o."detailsNameMediator") AS counterparty,
        COALESCE(r."bankName", o."detailsBankName") AS "bankName",
        NULL AS "movementKind", NULL AS reference, NULL AS note
      FROM "LedgerPosting" p JOIN "Operation" o ON o.id = p."operationId"
      LEFT JOIN "PayoutRequest" r ON r."operationId" = o.id
      WHERE p.at >= ${iso(p.from)}::timestamptz AND p.at < ${iso(p.to)}::timestamptz ${postingAfter}
      ORDER BY p.at, p."operationId", p.kind LIMIT ${limit}`,
    db.$queryRaw<Row[]>`
      SELECT "windowTo" AS at, id::text AS key, 'outside' AS kind, amount::text AS amount, '0' AS "holdDelta",
        NULL AS "idTransactionMerchant", NULL AS "typeOperation", NULL AS status, NULL AS "paymentMethod",
        NULL AS "amountPayment", NULL AS "currencyPayment", NULL AS "exchangeRate", NULL AS counterparty,
        NULL AS "bankName", kind::text AS "movementKind", reference, note
      FROM "OutsideMovement"
      WHERE "windowTo" >= ${iso(p.from)}::timestamptz AND "windowTo" < ${iso(p.to)}::timestamptz ${movementAfter}
        AND ${IN_LEDGER_CURRENCY}
      ORDER BY "windowTo", id LIMIT ${limit}`,
  ]);
  return [...postings, ...movements].sort(compare).slice(0, limit);
}

/** The available balance after the line the cursor names (or the opening balance without a cursor). */
async function balanceThrough(
  p: StatementPeriod,
  cursor: PostingCursor | null,
  db: LedgerReader,
): Promise<Decimal> {
  if (!cursor) return (await ledgerBalanceBefore(p.from, db)).available;
  const before = await ledgerBalanceBefore(new Date(cursor.at), db);
  const sameInstant = await rowsAtInstantThrough(cursor, db);
  return before.available.plus(sameInstant);
}

async function rowsAtInstantThrough(c: PostingCursor, db: LedgerReader): Promise<Decimal> {
  const rows = await db.$queryRaw<{ amount: string }[]>`
    SELECT COALESCE(sum(amount), 0)::text AS amount FROM (
      SELECT amount, "operationId" AS key, array_position(${[...kindOrder]}::text[], kind::text) AS ord
      FROM "LedgerPosting" WHERE at = ${c.at}::timestamptz
      UNION ALL
      SELECT amount, id, ${kindOrder.length} FROM "OutsideMovement"
      WHERE "windowTo" = ${c.at}::timestamptz AND ${IN_LEDGER_CURRENCY}
    ) s WHERE (key, ord) <= (${c.key}::uuid, ${kindOrder.indexOf(c.kind) + 1})`;
  return new Decimal(rows[0]?.amount ?? 0);
}

export type PostingsPage = { rows: StatementPosting[]; next: string | null };

function withBalances(rows: Row[], start: Decimal): { rows: StatementPosting[]; end: Decimal } {
  let balance = start;
  const out = rows.map((r) => {
    balance = balance.plus(r.amount);
    return { ...r, at: iso(r.at), amount: new Decimal(r.amount).toFixed(4), balance: balance.toFixed(4) };
  });
  return { rows: out, end: balance };
}

function cursorOf(row: { at: string; key: string; kind: PostingKind | "outside" }): PostingCursor {
  return { at: row.at, key: row.key, kind: row.kind };
}

/**
 * One page of a statement's lines, oldest first, each with the running balance; the lines and the
 * balance they start from are read from one snapshot (`db`, shared with the summary shown with them;
 * without one, a snapshot of its own).
 */
export async function postingsPage(
  p: StatementPeriod,
  cursor: PostingCursor | null,
  limit = 100,
  db?: LedgerReader,
): Promise<PostingsPage> {
  if (!db) return inLedgerSnapshot((tx) => postingsPage(p, cursor, limit, tx));
  const [rows, start] = await Promise.all([
    rowsAfter(p, cursor, limit + 1, db),
    balanceThrough(p, cursor, db),
  ]);
  const { rows: page } = withBalances(rows.slice(0, limit), start);
  const last = page.at(-1);
  return { rows: page, next: rows.length > limit && last ? encodeCursor(cursorOf(last)) : null };
}

/**
 * Every line of the period in order, read in chunks (for exports and issuing) through `db`: a snapshot's
 * client (inLedgerSnapshot), the one the summary printed with these lines was read from, so that the
 * chunks and the summary all see the same ledger.
 */
export async function* allPostings(
  p: StatementPeriod,
  db: LedgerReader,
  chunk = 5_000,
): AsyncGenerator<StatementPosting[]> {
  let cursor: PostingCursor | null = null;
  let balance = await balanceThrough(p, null, db);
  for (;;) {
    const rows = await rowsAfter(p, cursor, chunk, db);
    if (rows.length === 0) return;
    const { rows: page, end } = withBalances(rows, balance);
    balance = end;
    yield page;
    if (rows.length < chunk) return;
    cursor = cursorOf(page.at(-1)!);
  }
}
