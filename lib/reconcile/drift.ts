import type { DriftKind } from "@/lib/generated/prisma/enums";
import type { BatchItemResult } from "@/lib/operations/mirror/apply-batch";
import {
  fieldsOfSnapshot,
  LIFECYCLE_FIELDS,
  MONEY_FIELDS,
  pickFields,
  type MirroredField,
} from "@/lib/operations/mirror/mirror-fields";
import { statusRank } from "@/lib/operations/status";

export type DriftFinding = {
  operationId: string;
  kind: DriftKind;
  /** The mirrored fields that differed. */
  fields: MirroredField[];
  mirrorValue: object | null;
  platformValue: object;
  /** The run wrote the platform's values into the mirror. */
  repaired: boolean;
};

const CONTEXT: MirroredField[] = ["status", "dateUpdated"];

/**
 * What a reconciled page says about the mirror. Every mirrored field (amounts, currency, rate, status,
 * method, details, identity and dates) is compared; a difference becomes a drift item naming the fields,
 * with the mirror's and the platform's values, and is repaired by the same batch (the status history
 * records the page's traceID) unless the mirror's status is final and the platform's differs
 * (`conflict`: a person decides). Two things are not drift: an operation the platform changed so
 * recently that its webhook may still be on the way (a newer status and only the fields that move with
 * it), and a page older than the mirror's own snapshot (`stale`: the mirror received its state after
 * the page was read, so that newer snapshot explains any difference). Operations missing from the
 * mirror count once they are older than the grace period and the mirror was reconciled before.
 */
export function findDrift(
  results: BatchItemResult[],
  options: { graceCutoff: Date; mirrorWasReconciled: boolean },
): DriftFinding[] {
  const findings: DriftFinding[] = [];
  for (const { op, outcome, before, differences } of results) {
    const settled = (op.dateUpdated ?? op.dateAdded) < options.graceCutoff;
    if (!before) {
      if (options.mirrorWasReconciled && settled)
        findings.push({
          operationId: op.id,
          kind: "missingInMirror",
          fields: [],
          mirrorValue: null,
          platformValue: pickFields(fieldsOfSnapshot(op), [...CONTEXT, "amount", "amountInCurrencyBalance"]),
          repaired: outcome === "inserted",
        });
      continue;
    }
    if (differences.length === 0 || outcome === "stale") continue;
    const webhookOnTheWay =
      !settled &&
      statusRank(op.status) > statusRank(before.status) &&
      differences.every((f) => LIFECYCLE_FIELDS.has(f));
    if (outcome === "updated" && webhookOnTheWay) continue;
    const kind: DriftKind = differences.includes("status")
      ? "statusMismatch"
      : differences.some((f) => MONEY_FIELDS.has(f))
        ? "amountMismatch"
        : "fieldMismatch";
    const shown = [...new Set([...CONTEXT, ...differences])];
    findings.push({
      operationId: op.id,
      kind,
      fields: differences,
      mirrorValue: pickFields(before.fields, shown),
      platformValue: pickFields(fieldsOfSnapshot(op), shown),
      repaired: outcome === "updated",
    });
  }
  return findings;
}
