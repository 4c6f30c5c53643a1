import type { DriftKind } from "@/lib/generated/prisma/enums";
import type { BatchItemResult } from "@/lib/operations/apply-batch";

export type DriftFinding = {
  operationId: string;
  kind: DriftKind;
  mirrorValue: object | null;
  platformValue: object;
};

/**
 * What a reconciled page says about the mirror: operations it should have had (older than the grace
 * period, so a webhook had time to arrive), status changes it missed, finals that disagree, and amounts
 * that differ for the same version of an operation.
 */
export function findDrift(
  results: BatchItemResult[],
  options: { graceCutoff: Date; mirrorWasReconciled: boolean },
): DriftFinding[] {
  const findings: DriftFinding[] = [];
  for (const { op, outcome, before } of results) {
    const platformValue = {
      status: op.status,
      dateUpdated: op.dateUpdatedText,
      amount: op.amount.toFixed(),
      amountInCurrencyBalance: op.amountInCurrencyBalance?.toFixed() ?? null,
    };
    const settled = (op.dateUpdated ?? op.dateAdded) < options.graceCutoff;
    if (!before) {
      if (options.mirrorWasReconciled && settled)
        findings.push({ operationId: op.id, kind: "missingInMirror", mirrorValue: null, platformValue });
      continue;
    }
    const mirrorValue = { ...before, dateUpdated: before.dateUpdated?.toISOString() ?? null };
    if (outcome === "conflict" || (outcome === "updated" && before.status !== op.status && settled)) {
      findings.push({ operationId: op.id, kind: "statusMismatch", mirrorValue, platformValue });
    } else if (
      outcome === "unchanged" &&
      (before.amount !== platformValue.amount ||
        before.amountInCurrencyBalance !== platformValue.amountInCurrencyBalance)
    ) {
      findings.push({ operationId: op.id, kind: "amountMismatch", mirrorValue, platformValue });
    }
  }
  return findings;
}
