import "server-only";
import { audit, type Actor } from "@/lib/audit/log";
import { getDb } from "@/lib/db";
import { translatorFor } from "@/lib/auth/translator";
import type { DriftState } from "@/lib/generated/prisma/enums";
import { tryLockBalanceProof } from "@/lib/ledger/balance-drift";
import { Decimal } from "@/lib/money/decimal";

export type DriftDecision = "acknowledge" | "resolve";

export type DriftChangeResult =
  | { ok: true; id: string; state: DriftState }
  | { ok: false; code: "not_found" | "not_allowed" | "busy"; message: string };

/** How long a decision on a balance difference waits for the balance proof before saying it is busy. */
const PROOF_WAIT_MS = 10_000;

// open -> acknowledged (seen, being looked into); open or acknowledged -> resolved (with what was done).
const allowedFrom: Record<DriftDecision, DriftState[]> = {
  acknowledge: ["open"],
  resolve: ["open", "acknowledged"],
};

/**
 * Moves a drift item on with a note; audited with state and note before and after (and, for a balance
 * difference, its amount and currency).
 *
 * A balance difference is decided under the balance proof's lock (lib/ledger/balance-drift.ts), and only
 * for the amount the person saw (`seen.amount`, the page's): a movement the proof booked under the item
 * since the page was shown refuses the decision (reload and look again) instead of being resolved unseen.
 * The proof may hold its lock longer than the transaction may last: after PROOF_WAIT_MS the decision is
 * refused as `busy` (try again shortly), with nothing changed.
 */
export async function decideDrift(
  actor: Actor,
  id: string,
  decision: DriftDecision,
  note: string,
  seen: { amount?: string } = {},
): Promise<DriftChangeResult> {
  const next: DriftState = decision === "acknowledge" ? "acknowledged" : "resolved";
  const t = await translatorFor("reconciliation");
  // A decision on a balance difference waits for the proof to finish settling, but only PROOF_WAIT_MS of the
  // transaction's 30 s (lib/db.ts): the proof may take longer.
  return getDb().$transaction(async (tx) => {
    const read = () =>
      tx.driftItem.findUnique({
        where: { id },
        select: { kind: true, state: true, note: true, amount: true, currency: true },
      });
    let item = await read();
    if (item?.kind === "balanceDifference") {
      if (!(await tryLockBalanceProof(tx, PROOF_WAIT_MS))) {
        return { ok: false, code: "busy", message: t("decision.busy") };
      }
      item = await read();
    }
    if (!item) return { ok: false, code: "not_found", message: t("decision.noSuchItem") };
    if (!allowedFrom[decision].includes(item.state)) {
      return {
        ok: false,
        code: "not_allowed",
        message: t("decision.alreadyDecided", { state: item.state }),
      };
    }
    const balance =
      item.kind === "balanceDifference"
        ? { amount: (item.amount ?? new Decimal(0)).toFixed(4), currency: item.currency }
        : null;
    if (balance && (seen.amount === undefined || !new Decimal(seen.amount).equals(balance.amount))) {
      return { ok: false, code: "not_allowed", message: t("decision.changedMeanwhile") };
    }
    const updated = await tx.driftItem.updateMany({
      where: { id, state: item.state },
      data: {
        state: next,
        note,
        ...(next === "resolved" ? { resolvedById: actor.id, resolvedAt: new Date() } : {}),
      },
    });
    if (updated.count === 0) {
      return { ok: false, code: "not_allowed", message: t("decision.changedMeanwhile") };
    }
    await audit(tx, actor, {
      action: `drift.${decision}`,
      targetType: "driftItem",
      targetId: id,
      before: { state: item.state, note: item.note, ...balance },
      after: { state: next, note, ...balance },
    });
    return { ok: true, id, state: next };
  });
}
