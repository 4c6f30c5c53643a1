import "server-only";
/**
 * Small rules about operation amounts that readers of an Operation need.
 */
import type { Decimal } from "@/lib/money/decimal";
import type { Operation } from "./schemas";

/**
 * The randomised amount to show and compare: `amountRandomized` when set and non-zero, else
 * `amountInitial` (with randomisation off the spec says they are equal; deployments send 0).
 */
export function effectiveAmountRandomized(
  op: Pick<Operation, "amountInitial" | "amountRandomized">,
): Decimal {
  return op.amountRandomized && !op.amountRandomized.isZero() ? op.amountRandomized : op.amountInitial;
}

/** Final statuses: business decisions rest only on these (after a confirming read). */
export function isFinalStatus(status: Operation["status"]): boolean {
  return status === "success" || status === "failed";
}
