import "server-only";
import { withPoolTransaction, type PoolTransaction } from "@/lib/db";
import type { OperationStatus, SnapshotSource } from "@/lib/generated/prisma/enums";
import type { Operation } from "@/lib/platform/schemas";
import {
  differingFields,
  fieldsOfSnapshot,
  HINT_FIELDS,
  type MirroredField,
  type MirrorFields,
} from "@/lib/operations/mirror/mirror-fields";
import { lockAndReadMirrorStates, type MirrorState } from "@/lib/operations/mirror/mirror-state";
import { fillFromCreation, writeHint } from "@/lib/operations/mirror/narrow-writes";
import {
  mirrorRow,
  statusChangeOf,
  writeMirrorRows,
  writeStatusChanges,
} from "@/lib/operations/mirror/write-rows";
import { isFinal, statusRank } from "@/lib/operations/status";

/*
 * The mirror's one entry point. Every snapshot of an operation (creation answer, webhook, read-back,
 * reconciliation page, manual refresh) goes through applySnapshot or its batch form, which keep these
 * invariants:
 *
 * 1. A webhook is a hint. The platform signs nothing, so a webhook never creates a row and never sets
 *    an amount or any field other than the status and dateUpdated: an applied hint writes those two with
 *    its source and arrival, and the row keeps the amounts, details and `raw` of the last platform read.
 *    It is applied on its own only when the operation is mirrored, its status is not final and is later
 *    than the mirror's, every other field it carries equals the mirror's, and its dateUpdated is neither
 *    later than its arrival plus SKEW_MS nor earlier than the mirror's. A later status with an earlier
 *    date, and any other hint the mirror cannot take on its word, is `unconfirmed`: nothing changes, and
 *    the caller reads the operation back (lib/webhooks/process.ts). A hint that arrived before the
 *    mirror's last platform read was sent, that follows a final status or that shows an earlier status is
 *    `stale` (that read answered it already). A hint of the mirrored status changes nothing, whatever its
 *    date (`unchanged`; `stale` when its date is not later): taken on its word, a forged later date would
 *    make the genuine moves after it look stale.
 * 2. The platform's own API (creation answer, read-back, list, manual refresh) outranks webhooks. Each
 *    row records its snapshot's source (`lastSource`) and when Paydesk received it
 *    (`snapshotReceivedAt`: a webhook's arrival, the moment a read was sent). An API snapshot is `stale`
 *    only when the mirror's snapshot arrived after this read was sent (unless that snapshot is a
 *    webhook's and the read shows a later status: a hint delivered late, after the read, is older news),
 *    or when, against another API snapshot, it shows an earlier status with an earlier dateUpdated (two
 *    reads racing). Otherwise it wins whatever its dateUpdated, and every field that differs is written.
 * 3. A dateUpdated counts for ordering only up to its snapshot's arrival plus SKEW_MS: a far-future
 *    date cannot put a row out of reach of later snapshots.
 * 4. A final status never changes (`conflict`, mirror unchanged); a later API snapshot may still correct
 *    the other fields of a final operation.
 * 5. A snapshot that lacks paymentDetailsData, the method or the payment-form link keeps the stored ones
 *    (a by-id read of a pay-in may omit the details; pay-out reads carry no method). A creation answer
 *    that is not applied (a webhook's read-back inserted the operation first) still fills in the method
 *    and the link where the mirror has none.
 * 6. Each status change is recorded with its source and reference. Concurrent snapshots of one operation
 *    are serialised by an advisory lock on its id.
 */

export type ApplyOutcome =
  /** first time the mirror sees this operation */
  | "inserted"
  /** newer information stored */
  | "updated"
  /** same state as the mirror already has */
  | "unchanged"
  /** older than what the mirror has: ignored */
  | "stale"
  /** would move a final status to another status: refused, mirror unchanged */
  | "conflict"
  /** a webhook the mirror cannot take on its word: nothing changed, read the operation back */
  | "unconfirmed";

export type ApplyResult = {
  outcome: ApplyOutcome;
  previousStatus: OperationStatus | null;
  status: OperationStatus;
  /** Why a webhook was `unconfirmed`. */
  reason?: UnconfirmedReason;
};

export type ApplyOptions = {
  /** traceID of the read, or the webhook delivery id, recorded in the status history. */
  sourceRef?: string | null;
  /** For pay-outs, whose reads carry no method: the method of our own creation request. */
  paymentMethod?: string | null;
  /** When Paydesk received the snapshot: a webhook's arrival, or when the read was sent (default now). */
  receivedAt?: Date;
  tx?: PoolTransaction;
};

/** How far a dateUpdated may lie ahead of the snapshot's arrival (clocks differ a little). */
export const SKEW_MS = 5 * 60_000;

export type IncomingSnapshot = {
  status: OperationStatus;
  dateUpdated: Date | null;
  source: SnapshotSource;
  receivedAt: Date;
  fields: Partial<MirrorFields>;
};

/** Why a hint was confirmed by a read-back rather than applied on its word (a webhook delivery stores it as its note). */
export type UnconfirmedReason =
  | { why: "notMirrored" }
  | { why: "finalStatus"; status: string }
  | { why: "dateAhead"; at: string }
  | { why: "differsFromMirror"; fields: string[] }
  /** no reason given (apply-snapshot always gives one) */
  | { why: "unconfirmed" };

export type Judgement = { outcome: ApplyOutcome; differences: MirroredField[]; reason?: UnconfirmedReason };

/** The fields are compared only against a mirrored row: a first sighting (every row of a first full
 * reconciliation) does not spend the time to put them in comparable form. */
export function incomingSnapshot(op: Operation, source: SnapshotSource, receivedAt: Date): IncomingSnapshot {
  let fields: Partial<MirrorFields> | undefined;
  return {
    status: op.status,
    dateUpdated: op.dateUpdated,
    source,
    receivedAt,
    get fields() {
      return (fields ??= fieldsOfSnapshot(op));
    },
  };
}

/** The dateUpdated a snapshot may claim for ordering: never later than its arrival plus SKEW_MS. */
export function orderingTime(s: { dateUpdated: Date | null; receivedAt: Date }): number {
  return Math.min(s.dateUpdated?.getTime() ?? -Infinity, s.receivedAt.getTime() + SKEW_MS);
}

const fromApi = (source: SnapshotSource) => source !== "webhook";

/** Decides what a snapshot does to the mirrored state (the invariants above). */
export function judgeSnapshot(current: MirrorState | null, incoming: IncomingSnapshot): Judgement {
  if (incoming.source === "webhook") return judgeHint(current, incoming);
  if (!current) return { outcome: "inserted", differences: [] };
  const differences = differingFields(current.fields, incoming.fields);
  const result = (outcome: ApplyOutcome): Judgement => ({ outcome, differences });
  // A webhook applied meanwhile is never ahead of a read showing a later status: webhooks only ever
  // move the mirror to statuses that are not final, and statuses only move forward.
  const movesPastHint =
    current.lastSource === "webhook" && statusRank(incoming.status) > statusRank(current.status);
  if (incoming.receivedAt < current.receivedAt && !movesPastHint) return result("stale");
  if (isFinal(current.status) && incoming.status !== current.status) return result("conflict");
  if (
    fromApi(current.lastSource) &&
    statusRank(incoming.status) < statusRank(current.status) &&
    // An earlier status with no later date (equal, or both undated) is a step back, not news.
    orderingTime(incoming) <= orderingTime(current)
  ) {
    return result("stale");
  }
  return result(differences.length === 0 ? "unchanged" : "updated");
}

function judgeHint(current: MirrorState | null, incoming: IncomingSnapshot): Judgement {
  if (!current) return { outcome: "unconfirmed", differences: [], reason: { why: "notMirrored" } };
  const differences = differingFields(current.fields, incoming.fields);
  const unconfirmed = (reason: UnconfirmedReason): Judgement => ({
    outcome: "unconfirmed",
    differences,
    reason,
  });
  const result = (outcome: ApplyOutcome): Judgement => ({ outcome, differences });
  if (isFinal(incoming.status)) return unconfirmed({ why: "finalStatus", status: incoming.status });
  if (differences.length === 0) return result("unchanged");
  // A late event: the final status was confirmed by a read, or a read sent after it answered already.
  if (isFinal(current.status)) return result("stale");
  if (fromApi(current.lastSource) && incoming.receivedAt < current.receivedAt) return result("stale");
  if (incoming.dateUpdated && incoming.dateUpdated.getTime() > incoming.receivedAt.getTime() + SKEW_MS) {
    return unconfirmed({ why: "dateAhead", at: incoming.dateUpdated.toISOString() });
  }
  const claims = differences.filter((f) => !HINT_FIELDS.has(f));
  if (claims.length > 0) return unconfirmed({ why: "differsFromMirror", fields: claims });
  const mirrored = orderingTime(current);
  const claimed = incoming.dateUpdated?.getTime() ?? -Infinity;
  if (incoming.status === current.status) return result(claimed > mirrored ? "unchanged" : "stale");
  if (statusRank(incoming.status) <= statusRank(current.status)) return result("stale");
  if (claimed >= mirrored) return result("updated");
  // A later status dated before the mirror: which one is newer, the platform's read decides.
  return unconfirmed({ why: "differsFromMirror", fields: differences });
}

/**
 * Applies an operation snapshot from any source inside one transaction, under the invariants above.
 * `options.tx` is a transaction of the caller's on a plain pg connection (withPoolTransaction).
 */
export async function applySnapshot(
  op: Operation,
  source: SnapshotSource,
  options: ApplyOptions = {},
): Promise<ApplyResult> {
  const receivedAt = options.receivedAt ?? new Date();
  const run = async (tx: PoolTransaction): Promise<ApplyResult> => {
    // Serialises concurrent snapshots of the same operation, including the very first insert.
    const current = (await lockAndReadMirrorStates(tx, [op.id])).get(op.id) ?? null;
    const judgement = judgeSnapshot(current, incomingSnapshot(op, source, receivedAt));
    const { outcome } = judgement;
    if (outcome !== "inserted" && outcome !== "updated") {
      if (source === "creation" && current)
        await fillFromCreation(tx, op, current.kept, options.paymentMethod ?? null);
      const status = current?.status ?? op.status;
      return { outcome, previousStatus: current?.status ?? null, status, reason: judgement.reason };
    }
    const now = new Date().toISOString();
    if (source === "webhook" && current) await writeHint(tx, op, receivedAt, now);
    else {
      const kept = current?.kept ?? null;
      await writeMirrorRows(tx, [
        mirrorRow(op, source, { paymentMethod: options.paymentMethod ?? null, kept, receivedAt, now }),
      ]);
    }
    const change = statusChangeOf(op, current?.status ?? null, source, options.sourceRef ?? null);
    if (change) await writeStatusChanges(tx, [change]);
    return { outcome, previousStatus: current?.status ?? null, status: op.status };
  };
  return options.tx ? run(options.tx) : withPoolTransaction(run, { statementTimeoutMs: 30_000 });
}
