import "server-only";
import { audit, type Actor } from "@/lib/audit/log";
import { getDb } from "@/lib/db";
import { translatorFor } from "@/lib/auth/translator";
import type { DriftState } from "@/lib/generated/prisma/enums";

export type DriftDecision = "acknowledge" | "resolve";

export type DriftChangeResult =
  | { ok: true; id: string; state: DriftState }
  | { ok: false; code: "not_found" | "not_allowed"; message: string };

// open -> acknowledged (seen, being looked into); open or acknowledged -> resolved (with what was done).
const allowedFrom: Record<DriftDecision, DriftState[]> = {
  acknowledge: ["open"],
  resolve: ["open", "acknowledged"],
};

/** Moves a drift item on with a note; audited with state and note before and after. */
export async function decideDrift(
  actor: Actor,
  id: string,
  decision: DriftDecision,
  note: string,
): Promise<DriftChangeResult> {
  const next: DriftState = decision === "acknowledge" ? "acknowledged" : "resolved";
  const t = await translatorFor("reconciliation");
  return getDb().$transaction(async (tx) => {
    const item = await tx.driftItem.findUnique({ where: { id }, select: { state: true, note: true } });
    if (!item) return { ok: false, code: "not_found", message: t("decision.noSuchItem") };
    if (!allowedFrom[decision].includes(item.state)) {
      return { ok: false, code: "not_allowed", message: t("decision.alreadyDecided", { state: item.state }) };
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
      before: { state: item.state, note: item.note },
      after: { state: next, note },
    });
    return { ok: true, id, state: next };
  });
}
