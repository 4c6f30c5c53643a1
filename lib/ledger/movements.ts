import "server-only";
import { getDb } from "@/lib/db";

export type MovementRow = {
  id: string;
  windowFrom: string | null;
  windowTo: string;
  amount: string;
  currency: string;
  kind: string | null;
  reference: string | null;
  note: string | null;
  annotatedAt: string | null;
};

/** Movements outside operations, unannotated first, then newest. */
export async function listMovements(take = 50): Promise<MovementRow[]> {
  const rows = await getDb().outsideMovement.findMany({
    orderBy: [{ annotatedAt: { sort: "desc", nulls: "first" } }, { windowTo: "desc" }],
    take,
  });
  return rows.map((m) => ({
    id: m.id,
    windowFrom: m.windowFrom?.toISOString() ?? null,
    windowTo: m.windowTo.toISOString(),
    amount: m.amount.toFixed(4),
    currency: m.currency,
    kind: m.kind,
    reference: m.reference,
    note: m.note,
    annotatedAt: m.annotatedAt?.toISOString() ?? null,
  }));
}
