import "server-only";
import { getDb } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import { IN_LEDGER_CURRENCY, ledgerBalanceAt, ledgerCurrency } from "@/lib/ledger/balance";
import {
  bookUnexplainedDifference,
  lockBalanceProof,
  openBalanceDifferences,
  raiseCurrencyDifference,
  tryLockBalanceProof,
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
 *
 * The ledger is kept in one currency, the merchant's balance currency (ledgerCurrency, set by the first
 * read): a figure the platform gives in another is never compared nor booked (recordComparison), and the
 * ledger counts only movements in its currency (lib/ledger/balance.ts). The clocks of the platform (which
 * dates the postings) and of Paydesk (which dates the reads) may differ a little: PROOF_CLOCK_TOLERANCE_MS.
 */

type Snapshot = {
  id: bigint;
  takenAt: Date;
  amountInCurrencyBalance: Decimal;
  currencyBalance: string;
  traceID?: string | null;
};

/**
 * How far apart Paydesk's clock and the platform's may be, for the proof. A read is dated by Paydesk's
 * clock (requestedAt, takenAt), the postings by the platform's (an operation's dateUpdated): a completion
 * the platform dated a few hundred milliseconds after our read (its clock slightly ahead, or dateUpdated
 * stamped just after the balance moved) is already in its figure but not in the ledger at takenAt, for
 * ever; without a margin settling books a movement outside operations although the operation is mirrored,
 * and the next read books the opposite. Hosts kept by NTP agree to well under a second; a few seconds cover
 * that and the platform's own stamping delay, and are far shorter than the time between two reads that
 * matter (a real movement is still found: only a ledger state inside the margin that equals the platform's
 * figure counts as the figure's explanation).
 */
export const PROOF_CLOCK_TOLERANCE_MS = 5_000;

/**
 * The ledger's balance that best explains the platform's figure: the platform answered at some moment
 * between sending and storing, by a clock that may differ from ours by PROOF_CLOCK_TOLERANCE_MS, so a
 * posting within [requestedAt - tolerance, takenAt + tolerance] may or may not be in its figure. The
 * ledger's state at any posting boundary in that window that equals the figure is that explanation.
 * When none does, the state that leaves the least unexplained (the state at takenAt on a tie): a posting
 * near the read is not itself booked as a movement outside operations because the figure also differs
 * for another reason.
 */
async function ledgerNear(
  platform: Decimal,
  requestedAt: Date,
  takenAt: Date,
  db: Prisma.TransactionClient,
): Promise<Decimal> {
  const atAnswer = (await ledgerBalanceAt(takenAt, db)).available;
  if (atAnswer.equals(platform)) return atAnswer;
  const from = new Date(Math.min(requestedAt.getTime(), takenAt.getTime()) - PROOF_CLOCK_TOLERANCE_MS);
  const to = new Date(takenAt.getTime() + PROOF_CLOCK_TOLERANCE_MS);
  let state = (await ledgerBalanceAt(from, db)).available;
  if (state.equals(platform)) return state;
  let nearest = atAnswer;
  const closer = (candidate: Decimal) => {
    if (platform.minus(candidate).abs().lessThan(platform.minus(nearest).abs())) nearest = candidate;
  };
  closer(state);
  // Every instant in (from, to] at which the ledger moves, with what it moved by (the same instant's
  // postings together: no state is seen between them).
  const steps = await db.$queryRaw<{ amount: string }[]>`
    SELECT sum(amount)::text AS amount FROM (
      SELECT at, amount FROM "LedgerPosting"
      WHERE at > ${from.toISOString()}::timestamptz AND at <= ${to.toISOString()}::timestamptz
      UNION ALL
      SELECT "windowTo", amount FROM "OutsideMovement"
      WHERE "windowTo" > ${from.toISOString()}::timestamptz AND "windowTo" <= ${to.toISOString()}::timestamptz
        AND ${IN_LEDGER_CURRENCY}
    ) s GROUP BY at ORDER BY at`;
  for (const step of steps) {
    state = state.plus(step.amount);
    if (state.equals(platform)) return state;
    closer(state);
  }
  return nearest;
}

/**
 * Stores the comparison for a fresh snapshot; call it in the transaction that stored the snapshot.
 *
 * Only a figure in the ledger's currency is compared (ledgerCurrency: the first read sets it). A figure in
 * another currency is neither compared nor, ever, booked into the ledger: payment currency and balance
 * currency are never added. It is raised as a balance difference of its own instead (raiseCurrencyDifference).
 */
export async function recordComparison(
  tx: Prisma.TransactionClient,
  snapshot: Snapshot,
  requestedAt: Date,
): Promise<void> {
  const platform = new Decimal(snapshot.amountInCurrencyBalance.toFixed());
  // The snapshot is already stored: before the first comparison it sets the ledger's currency.
  const currency = await ledgerCurrency(tx);
  if (currency !== null && currency !== snapshot.currencyBalance) {
    await raiseCurrencyDifference(tx, {
      ledgerCurrency: currency,
      currency: snapshot.currencyBalance,
      amount: platform,
      takenAt: snapshot.takenAt,
      traceID: snapshot.traceID ?? null,
    });
    return;
  }
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
 * outside operations. Comparisons are settled oldest first, one runner at a time (waiting for the one
 * under way: the ledger-upkeep job).
 */
export async function settleComparisons(graceMinutes: number, now = new Date()): Promise<number> {
  return getDb().$transaction(
    async (tx) => {
      await lockBalanceProof(tx);
      return settle(tx, graceMinutes, now);
    },
    { timeout: SETTLE_TIMEOUT_MS },
  );
}

/**
 * settleComparisons for a page: settles only if no other runner is settling (the proof's lock is free at
 * once), and answers null without waiting otherwise: the runner under way (or the ledger-upkeep job)
 * settles the same comparisons.
 */
export async function settleComparisonsIfFree(
  graceMinutes: number,
  now = new Date(),
): Promise<number | null> {
  return getDb().$transaction(
    async (tx) => ((await tryLockBalanceProof(tx, 0)) ? settle(tx, graceMinutes, now) : null),
    { timeout: SETTLE_TIMEOUT_MS },
  );
}

/** How long settling may hold the proof's lock (its transaction's limit). */
const SETTLE_TIMEOUT_MS = 120_000;

/** Settles the due comparisons; call it under the proof's lock. */
async function settle(tx: Prisma.TransactionClient, graceMinutes: number, now: Date): Promise<number> {
  const due = await tx.balanceComparison.findMany({
    where: { settledAt: null, takenAt: { lt: new Date(now.getTime() - graceMinutes * 60_000) } },
    orderBy: { takenAt: "asc" },
    take: 500,
  });
  const currency = await ledgerCurrency(tx);
  let created = 0;
  for (const c of due) {
    const platform = new Decimal(c.platformBalance.toFixed());
    if (currency !== null && c.currency !== currency) {
      // A comparison in another currency (stored before recordComparison refused them): never booked.
      const snapshot = await tx.balanceSnapshot.findUnique({
        where: { id: c.snapshotId },
        select: { traceID: true },
      });
      await raiseCurrencyDifference(tx, {
        ledgerCurrency: currency,
        currency: c.currency,
        amount: platform,
        takenAt: c.takenAt,
        traceID: snapshot?.traceID ?? null,
      });
    } else {
      const residual = platform.minus(await ledgerNear(platform, c.requestedAt, c.takenAt, tx));
      if (!residual.isZero()) {
        const previous = await tx.balanceComparison.findFirst({
          where: { takenAt: { lt: c.takenAt }, currency: c.currency },
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
    }
    await tx.balanceComparison.update({ where: { id: c.id }, data: { settledAt: now } });
  }
  return created;
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
