import "server-only";
import { getDb } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import { Decimal } from "@/lib/money/decimal";

/**
 * A lasting difference between the platform's balance and the ledger, as a drift item (kind
 * `balanceDifference`, no run and no operation) next to the reconciliation's.
 *
 * When the balance proof settles a read older than `balanceDifferenceMinutes` and the operations still do
 * not explain the platform's figure, the unexplained part is booked as a movement outside operations
 * (lib/ledger/proof.ts) under the open balance-difference item of that currency: the first such movement
 * opens the item, later ones add to its amount (one item per lasting difference, however many reads see
 * it). The item stays open until the difference is accounted for, which a finance user sees as either:
 * - the platform comes back to what the operations explain (the movements under the item add up to 0,
 *   e.g. an operation that was missing from the mirror arrived and the opposite movement was booked), or
 * - finance has said what every movement under it was (annotated: top-up, withdrawal, adjustment).
 * Either resolves it automatically (resolvedAt set, no resolver). A person may also acknowledge or
 * resolve it on the reconciliation page like any drift item; a movement booked after that opens a new one.
 *
 * A balance read in another currency than the ledger's (a deployment answering in the payment currency, a
 * list of records read wrong) is never compared nor booked: payment currency and balance currency are
 * never added. It is raised as a balance-difference item of its own (raiseCurrencyDifference): the field
 * that differs, `currencyBalance`, named in `fields`; the ledger's currency on the mirror's side and the
 * platform's record on the platform's; the platform's figure in its currency as the amount. No movement is
 * ever booked under it: a person resolves it on the reconciliation page once the platform's currency is
 * sorted out.
 */

const UNRESOLVED = ["open", "acknowledged"] as const;

/** The field named by a balance-difference item about the currency (raiseCurrencyDifference). */
export const CURRENCY_FIELD = "currencyBalance";

/** How long annotating a movement waits for the balance proof before saying it is busy. */
export const PROOF_WAIT_MS = 10_000;

/** One settler or annotator at a time: a movement is never booked under an item being resolved. */
export async function lockBalanceProof(tx: Prisma.TransactionClient): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(7370011)`;
}

/**
 * lockBalanceProof for a person waiting on a page: the proof may hold the lock for minutes while it settles
 * (settleComparisons, lib/ledger/proof.ts), longer than an interactive transaction lasts (lib/db.ts), so
 * this waits at most `waitMs` and answers false if the lock is still held then. It tries the lock rather
 * than setting a lock_timeout: a lock timeout is an error, which would abort the caller's transaction.
 */
export async function tryLockBalanceProof(tx: Prisma.TransactionClient, waitMs: number): Promise<boolean> {
  const until = Date.now() + waitMs;
  for (;;) {
    const [row] = await tx.$queryRaw<
      { locked: boolean }[]
    >`SELECT pg_try_advisory_xact_lock(7370011) AS locked`;
    if (row?.locked) return true;
    if (Date.now() >= until) return false;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/**
 * Books an unexplained part of the platform's balance under the currency's open item; opens one if none.
 * Call it under lockBalanceProof. The item is added to only while it is still unresolved: one resolved
 * since it was read (by a path that does not take the lock) is left as it was, and a new item is opened.
 */
export async function bookUnexplainedDifference(
  tx: Prisma.TransactionClient,
  movement: { windowFrom: Date | null; windowTo: Date; amount: Decimal; currency: string },
  now: Date,
): Promise<void> {
  const open = await tx.driftItem.findFirst({
    where: {
      kind: "balanceDifference",
      currency: movement.currency,
      state: { in: [...UNRESOLVED] },
      NOT: { fields: { has: CURRENCY_FIELD } },
    },
    orderBy: { createdAt: "asc" },
    select: { id: true },
  });
  const [added] = open
    ? await tx.driftItem.updateManyAndReturn({
        where: { id: open.id, state: { in: [...UNRESOLVED] } },
        data: { amount: { increment: movement.amount.toFixed(4) } },
        select: { id: true, amount: true },
      })
    : [];
  const item =
    added ??
    (await tx.driftItem.create({
      data: {
        kind: "balanceDifference",
        currency: movement.currency,
        amount: movement.amount.toFixed(4),
        differsSince: movement.windowTo,
      },
      select: { id: true, amount: true },
    }));
  await tx.outsideMovement.create({
    data: {
      windowFrom: movement.windowFrom,
      windowTo: movement.windowTo,
      amount: movement.amount.toFixed(4),
      currency: movement.currency,
      driftItemId: item.id,
    },
  });
  if (item.amount?.isZero()) await resolveAutomatically(tx, item.id, now);
}

/**
 * A balance read in another currency than the ledger's: the currency's unresolved item about it, or a new
 * one (see the header). Nothing is booked. Needs no lock (it books nothing and nothing resolves it
 * automatically); a read that raises it in the same moment as another may open a second item.
 */
export async function raiseCurrencyDifference(
  tx: Prisma.TransactionClient,
  read: { ledgerCurrency: string; currency: string; amount: Decimal; takenAt: Date; traceID: string | null },
): Promise<void> {
  const open = await tx.driftItem.findFirst({
    where: {
      kind: "balanceDifference",
      currency: read.currency,
      state: { in: [...UNRESOLVED] },
      fields: { has: CURRENCY_FIELD },
    },
    select: { id: true },
  });
  if (open) return;
  await tx.driftItem.create({
    data: {
      kind: "balanceDifference",
      fields: [CURRENCY_FIELD],
      mirrorValue: { currencyBalance: read.ledgerCurrency },
      platformValue: { currencyBalance: read.currency, amountInCurrencyBalance: read.amount.toFixed(4) },
      sourceRef: read.traceID,
      currency: read.currency,
      amount: read.amount.toFixed(4),
      differsSince: read.takenAt,
    },
  });
}

/** `busy`: the balance proof held its lock longer than PROOF_WAIT_MS; nothing may be written then. */
export type ResolveResult = { ok: true } | { ok: false; code: "busy" };

/**
 * For a movement being annotated: its item is resolved once every movement under it is explained (this
 * one counts as explained: call it in the annotating transaction before writing the annotation). It
 * waits for the balance proof's lock at most PROOF_WAIT_MS (the proof may hold it longer than the
 * annotating transaction may last) and answers `busy` then, before anything is written: the caller
 * writes nothing either, and the person tries again.
 */
export async function resolveIfExplained(
  tx: Prisma.TransactionClient,
  movementId: string,
  now: Date,
): Promise<ResolveResult> {
  const movement = await tx.outsideMovement.findUnique({
    where: { id: movementId },
    select: { driftItemId: true },
  });
  if (!movement?.driftItemId) return { ok: true };
  if (!(await tryLockBalanceProof(tx, PROOF_WAIT_MS))) return { ok: false, code: "busy" };
  const unexplained = await tx.outsideMovement.count({
    where: { driftItemId: movement.driftItemId, annotatedAt: null, id: { not: movementId } },
  });
  if (unexplained === 0) await resolveAutomatically(tx, movement.driftItemId, now);
  return { ok: true };
}

async function resolveAutomatically(tx: Prisma.TransactionClient, id: string, now: Date) {
  await tx.driftItem.updateMany({
    where: { id, state: { in: [...UNRESOLVED] } },
    data: { state: "resolved", resolvedAt: now, resolvedById: null },
  });
}

export type BalanceDifference = { id: string; amount: string; currency: string; since: string };

/** The balance differences still open (or acknowledged), oldest first: the home page lists them. */
export async function openBalanceDifferences(): Promise<BalanceDifference[]> {
  const items = await getDb().driftItem.findMany({
    where: { kind: "balanceDifference", state: { in: [...UNRESOLVED] } },
    orderBy: { createdAt: "asc" },
    select: { id: true, amount: true, currency: true, differsSince: true, createdAt: true },
  });
  return items.map((i) => ({
    id: i.id,
    amount: (i.amount ?? new Decimal(0)).toFixed(4),
    currency: i.currency ?? "",
    since: (i.differsSince ?? i.createdAt).toISOString(),
  }));
}
