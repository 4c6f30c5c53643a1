import "server-only";
import { getDb } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";

/**
 * One snapshot of the ledger for everything a statement reads: its opening and closing balances, its
 * per-day sums and every one of its lines.
 *
 * Webhooks and reconciliation commit postings all the time. Read as separate statements (on separate
 * pool connections, or one chunk after another), a statement mixes moments: an opening read before a
 * commit and a closing read after it, lines that sum to more than the movements of the summary printed
 * above them. Inside one `REPEATABLE READ READ ONLY` transaction every statement sees the database as
 * it was at the first one, so what is read together adds up (and the transaction can write nothing).
 *
 * The transaction holds one connection of the pool until `fn` returns: a streamed export holds it for
 * the whole download, as the operations CSV export holds its COPY. `timeoutMs` bounds it (Prisma rolls
 * the transaction back then and the reads that follow fail).
 */
export type LedgerReader = Pick<Prisma.TransactionClient, "$queryRaw">;

/** A summary or a page of lines, shown on the screen: a few statements. */
export const SCREEN_SNAPSHOT_MS = 30_000;
/** Issuing a statement or checking issued ones: every line of a period, read into memory. */
export const WHOLE_PERIOD_SNAPSHOT_MS = 5 * 60_000;
/** A streamed export: as long as the client takes to download it. */
export const EXPORT_SNAPSHOT_MS = 30 * 60_000;

export async function inLedgerSnapshot<T>(
  fn: (tx: LedgerReader) => Promise<T>,
  { timeoutMs = SCREEN_SNAPSHOT_MS }: { timeoutMs?: number } = {},
): Promise<T> {
  return getDb().$transaction(
    async (tx) => {
      // Before the transaction's first query: the snapshot is taken by the first statement after it.
      await tx.$executeRaw`SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY`;
      return fn(tx);
    },
    { timeout: timeoutMs },
  );
}
