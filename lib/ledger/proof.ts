import "server-only";
import { getDb } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import { ledgerBalanceAt } from "@/lib/ledger/balance";
import {
  bookUnexplainedDifference,
  lockBalanceProof,
  openBalanceDifferences,
  type BalanceDifference,
} from "@/lib/ledger/balance-drift";
import { Decimal } from "@/lib/money/decimal";
import { finalStatuses } from "@/lib/operations/status";

/**
 * The balance proof: the ledger's available balance (postings plus movements outside operations) against
 * the platform's GET /balance, at every fresh balance read.
 *
 * A difference is first given time (`balanceDifferenceMinutes`): an operation in flight or not yet
 * mirrored explains it once the mirror catches up. What is still unexplained after that is recorded as a
 * movement outside operations (top-up, withdrawal, staff adjustment) in the window since the previous
 * read, so that from then on the ledger and the platform agree again; finance annotates it. The lasting
 * difference itself is a drift item until it is accounted for (lib/ledger/balance-drift.ts).
 */

type Snapshot = { id: bigint; takenAt: Date; amountInCurrencyBalance: Decimal; currencyBalance: string };

/**
 * The ledger's balance that best explains the platform's figure: the platform answered at some moment
 * between sending and storing, so a posting that falls in that gap may or may not be in its figure.
 */
async function ledgerNear(
  platform: Decimal,
  requestedAt: Date,
  takenAt: Date,
  db: Prisma.TransactionClient,
): Promise<Decimal> {
  const atAnswer = (await ledgerBalanceAt(takenAt, db)).available;
  if (atAnswer.equals(platform) || requestedAt >= takenAt) return atAnswer;
  const atRequest = (await ledgerBalanceAt(requestedAt, db)).available;
  return atRequest.equals(platform) ? atRequest : atAnswer;
}

/** Stores the comparison for a fresh snapshot; call it in the transaction that stored the snapshot. */
export async function recordComparison(
  tx: Prisma.TransactionClient,
  snapshot: Snapshot,
  requestedAt: Date,
): Promise<void> {
  const platform = new Decimal(snapshot.amountInCurrencyBalance.toFixed());
  const ledger = { available: await ledgerNear(platform, requestedAt, snapshot.takenAt, tx) };
  await tx.balanceComparison.create({
    data: {
      snapshotId: snapshot.id,
      requestedAt,
      takenAt: snapshot.takenAt,
      currency: snapshot.currencyBalance,
      platformBalance: platform.toFixed(4),
      ledgerBalance: ledger.available.toFixed(4),
      difference: platform.minus(ledger.available).toFixed(4),
    },
  });
}

/**
 * Turns what the operations still do not explain, at reads older than the grace period, into movements
 * outside operations. Comparisons are settled oldest first, one runner at a time.
 */
export async function settleComparisons(graceMinutes: number, now = new Date()): Promise<number> {
  return getDb().$transaction(
    async (tx) => {
      await lockBalanceProof(tx);
      const due = await tx.balanceComparison.findMany({
        where: { settledAt: null, takenAt: { lt: new Date(now.getTime() - graceMinutes * 60_000) } },
        orderBy: { takenAt: "asc" },
        take: 500,
      });
      let created = 0;
      for (const c of due) {
        const platform = new Decimal(c.platformBalance.toFixed());
        const residual = platform.minus(await ledgerNear(platform, c.requestedAt, c.takenAt, tx));
        if (!residual.isZero()) {
          const previous = await tx.balanceComparison.findFirst({
            where: { takenAt: { lt: c.takenAt } },
            orderBy: { takenAt: "desc" },
            select: { takenAt: true },
          });
          await bookUnexplainedDifference(
            tx,
            {
              windowFrom: previous?.takenAt ?? null,
              windowTo: c.takenAt,
              amount: residual,
              currency: c.currency,
            },
            now,
          );
          created += 1;
        }
        await tx.balanceComparison.update({ where: { id: c.id }, data: { settledAt: now } });
      }
      return created;
    },
    { timeout: 120_000 },
  );
}

export type ProofStatus =
  | { state: "none" }
  | {
      state: "matches" | "differs";
      currency: string;
      platform: string;
      ledger: string;
      difference: string;
      checkedAt: string;
      /** Since when the difference has lasted (the first read of the current run of differences). */
      since: string | null;
      /** Pay-outs in flight and their holds: a difference right after one was created is expected. */
      inFlight: { operations: number; held: string };
      lastCompleteReconciliationAt: string | null;
    };

/** What the balance page says about the latest comparison. */
export async function proofStatus(): Promise<ProofStatus> {
  const db = getDb();
  const latest = await db.balanceComparison.findFirst({ orderBy: { takenAt: "desc" } });
  if (!latest) return { state: "none" };
  const differs = !latest.difference.isZero();
  const [lastMatch, inFlight, lastRun] = await Promise.all([
    differs
      ? db.balanceComparison.findFirst({
          where: { difference: { equals: 0 }, takenAt: { lt: latest.takenAt } },
          orderBy: { takenAt: "desc" },
          select: { takenAt: true },
        })
      : null,
    db.operation.aggregate({
      where: { typeOperation: "payOut", status: { notIn: [...finalStatuses] } },
      _count: { _all: true },
      _sum: { amountInCurrencyBalance: true, amountComissionInCurrencyBalance: true },
    }),
    db.reconciliationRun.findFirst({
      where: { status: "completed", finishedAt: { not: null } },
      orderBy: { finishedAt: "desc" },
      select: { finishedAt: true },
    }),
  ]);
  let since: Date | null = null;
  if (differs) {
    const first = await db.balanceComparison.findFirst({
      where: { takenAt: { gt: lastMatch?.takenAt ?? new Date(0) } },
      orderBy: { takenAt: "asc" },
      select: { takenAt: true },
    });
    since = first?.takenAt ?? latest.takenAt;
  }
  const held = new Decimal(inFlight._sum.amountInCurrencyBalance?.toFixed() ?? 0).plus(
    inFlight._sum.amountComissionInCurrencyBalance?.toFixed() ?? 0,
  );
  return {
    state: differs ? "differs" : "matches",
    currency: latest.currency,
    platform: latest.platformBalance.toFixed(4),
    ledger: latest.ledgerBalance.toFixed(4),
    difference: latest.difference.toFixed(4),
    checkedAt: latest.takenAt.toISOString(),
    since: since?.toISOString() ?? null,
    inFlight: { operations: inFlight._count._all, held: held.toFixed(4) },
    lastCompleteReconciliationAt: lastRun?.finishedAt?.toISOString() ?? null,
  };
}

/** For the home page: lasting differences (open drift items), and movements nobody annotated yet. */
export async function proofAttention(): Promise<{
  differences: BalanceDifference[];
  unannotatedMovements: number;
}> {
  const [differences, unannotatedMovements] = await Promise.all([
    openBalanceDifferences(),
    getDb().outsideMovement.count({ where: { kind: null } }),
  ]);
  return { differences, unannotatedMovements };
}
