import "server-only";
import { z } from "zod";
import { getDb } from "@/lib/db";
import type { DriftKind, DriftState } from "@/lib/generated/prisma/enums";
import type { WordedNote, Words } from "@/lib/i18n/worded-note";
import { catalogWords } from "@/lib/auth/translator";
import { wordRunNote } from "@/lib/reconcile/run-notes";

export const driftStates = ["open", "acknowledged", "resolved"] as const satisfies readonly DriftState[];

export type RunRow = {
  id: string;
  kind: string;
  status: string;
  startedAt: string;
  finishedAt: string | null;
  pages: number;
  operationsSeen: number;
  inserted: number;
  updated: number;
  /** Why it stopped or failed, in the reader's words (null: nothing to say yet). */
  note: WordedNote | null;
  drift: number;
};

/** The latest runs, newest first; `t` and `when` word their notes for the reader. */
export async function listRuns(
  take = 20,
  given?: { t: Words; when: (iso: string) => string },
): Promise<RunRow[]> {
  const reader = given ?? { t: await catalogWords(), when: (iso: string) => iso };
  const runs = await getDb().reconciliationRun.findMany({
    orderBy: { startedAt: "desc" },
    take,
    include: { _count: { select: { drift: true } } },
  });
  return runs.map((r) => ({
    id: r.id,
    kind: r.kind,
    status: r.status,
    startedAt: r.startedAt.toISOString(),
    finishedAt: r.finishedAt?.toISOString() ?? null,
    pages: r.pages,
    operationsSeen: r.operationsSeen,
    inserted: r.inserted,
    updated: r.updated,
    // run errors are our own messages (platform errors are redacted), safe for staff
    note: wordRunNote(reader.t, r, reader.when),
    drift: r._count.drift,
  }));
}

export const driftFilterSchema = z.object({
  state: z.enum(driftStates, { error: "reconciliation.drift.unknownState" }).default("open"),
  page: z.coerce.number({ error: "reconciliation.drift.notAPage" }).int().min(1).max(10_000).default(1),
});
export type DriftFilter = z.output<typeof driftFilterSchema>;

export type DriftRow = {
  id: string;
  /** Null for a balance difference (not found by a run, not about one operation). */
  runId: string | null;
  operationId: string | null;
  kind: DriftKind;
  state: DriftState;
  /** The mirrored fields that differed. */
  fields: string[];
  mirrorValue: unknown;
  /** For an `unreadable` item, the item as the platform sent it. */
  platformValue: unknown;
  /** Why an `unreadable` item did not decode, in the decoder's words (data, not catalog words). */
  reason: string | null;
  /** When the run wrote the platform's values into the mirror, and the traceID of the read that had them. */
  repairedAt: string | null;
  sourceRef: string | null;
  note: string | null;
  resolvedAt: string | null;
  resolvedBy: string | null;
  createdAt: string;
  /** A balance difference: platform minus ledger, its currency, and the first read that differed. */
  balance: { amount: string; currency: string; since: string } | null;
};

const PAGE = 50;

/** Drift items in one state, newest first, 50 a page. */
export async function listDrift(filter: DriftFilter): Promise<{ rows: DriftRow[]; hasMore: boolean }> {
  const db = getDb();
  const items = await db.driftItem.findMany({
    where: { state: filter.state },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    skip: (filter.page - 1) * PAGE,
    take: PAGE + 1,
  });
  const page = items.slice(0, PAGE);
  const resolverIds = [...new Set(page.map((i) => i.resolvedById).filter((v): v is string => v !== null))];
  const resolvers = resolverIds.length
    ? await db.user.findMany({ where: { id: { in: resolverIds } }, select: { id: true, email: true } })
    : [];
  const emailOf = new Map(resolvers.map((u) => [u.id, u.email]));
  return {
    rows: page.map((i) => ({
      ...platformSide(i.kind, i.platformValue),
      id: i.id,
      runId: i.runId,
      operationId: i.operationId,
      kind: i.kind,
      state: i.state,
      fields: i.fields,
      mirrorValue: i.mirrorValue,
      repairedAt: i.repairedAt?.toISOString() ?? null,
      sourceRef: i.sourceRef,
      note: i.note,
      resolvedAt: i.resolvedAt?.toISOString() ?? null,
      resolvedBy: i.resolvedById ? (emailOf.get(i.resolvedById) ?? i.resolvedById) : null,
      createdAt: i.createdAt.toISOString(),
      balance:
        i.kind === "balanceDifference"
          ? {
              amount: (i.amount ?? 0).toFixed(4),
              currency: i.currency ?? "",
              since: (i.differsSince ?? i.createdAt).toISOString(),
            }
          : null,
    })),
    hasMore: items.length > PAGE,
  };
}

/** An `unreadable` item keeps { reason, item } (lib/reconcile/run.ts): shown apart. */
function platformSide(kind: DriftKind, value: unknown): { platformValue: unknown; reason: string | null } {
  if (kind === "unreadable" && typeof value === "object" && value !== null && "item" in value) {
    const { reason, item } = value as { reason?: unknown; item: unknown };
    return { platformValue: item, reason: typeof reason === "string" ? reason : null };
  }
  return { platformValue: value, reason: null };
}

export async function driftCounts(): Promise<Record<DriftState, number>> {
  const groups = await getDb().driftItem.groupBy({ by: ["state"], _count: { _all: true } });
  const counts: Record<DriftState, number> = { open: 0, acknowledged: 0, resolved: 0 };
  for (const g of groups) counts[g.state] = g._count._all;
  return counts;
}
