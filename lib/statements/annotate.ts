import "server-only";
import { audit, type Actor } from "@/lib/audit/log";
import { getDb } from "@/lib/db";
import { translatorFor } from "@/lib/auth/translator";
import type { OutsideMovementKind } from "@/lib/generated/prisma/enums";
import { resolveIfExplained } from "@/lib/ledger/balance-drift";

export type AnnotateResult =
  { ok: true; id: string } | { ok: false; code: "not_found" | "busy"; message: string };

/**
 * Says what a movement outside operations was (top-up, withdrawal, adjustment); audited before/after.
 * Resolving the movement's balance difference waits for the balance proof a bounded time: while the proof
 * settles past that, nothing is written and the answer is `busy` (try again in a minute).
 */
export async function annotateMovement(
  actor: Actor,
  input: { id: string; kind: OutsideMovementKind; reference: string | null; note: string | null },
): Promise<AnnotateResult> {
  const [t, words] = await Promise.all([translatorFor("statements"), translatorFor("balance")]);
  return getDb().$transaction(async (tx) => {
    const before = await tx.outsideMovement.findUnique({
      where: { id: input.id },
      select: { kind: true, reference: true, note: true },
    });
    if (!before) return { ok: false, code: "not_found", message: t("movement.noSuchMovement") };
    const now = new Date();
    // Before the annotation is written: a busy proof leaves nothing written.
    const resolved = await resolveIfExplained(tx, input.id, now);
    if (!resolved.ok) return { ok: false, code: "busy", message: words("movements.proofBusy") };
    await tx.outsideMovement.update({
      where: { id: input.id },
      data: {
        kind: input.kind,
        reference: input.reference,
        note: input.note,
        annotatedById: actor.id,
        annotatedAt: now,
      },
    });
    await audit(tx, actor, {
      action: "balance.annotateMovement",
      targetType: "outsideMovement",
      targetId: input.id,
      before,
      after: { kind: input.kind, reference: input.reference, note: input.note },
    });
    return { ok: true, id: input.id };
  });
}
