import { money, type Money } from "./money";
import { toScale4 } from "./money-scaled";
import { FINAL_STATUSES, type Operation } from "./types";

/**
 * Balance effects of an operation in the balance currency. The merchant's available balance is the
 * sum of explicit credits and of these effects, so it always follows from the operations:
 * - a successful pay-in credits amountInCurrencyBalance - amountComissionInCurrencyBalance;
 * - a pay-out debits amountInCurrencyBalance + amountComissionInCurrencyBalance from creation on
 *   (reserved while not final, settled at success) and gives it back when it fails.
 */
export function availableEffect(op: Operation): Money {
  if (op.typeOperation === "payIn") {
    return op.status === "success"
      ? money(op.amountInCurrencyBalance).minus(op.amountComissionInCurrencyBalance)
      : money(0);
  }
  return op.status === "failed" ? money(0) : payoutRequirement(op).negated();
}

/** Part of the balance held by pay-outs that are not final yet. */
export function reservedEffect(op: Operation): Money {
  return op.typeOperation === "payOut" && !FINAL_STATUSES.has(op.status) ? payoutRequirement(op) : money(0);
}

export function payoutRequirement(
  op: Pick<Operation, "amountInCurrencyBalance" | "amountComissionInCurrencyBalance">,
): Money {
  return money(op.amountInCurrencyBalance).plus(op.amountComissionInCurrencyBalance);
}

/** availableEffect() and reservedEffect() on values scaled by 10^4 (exact BigInt), for bulk loading. */
export function scaledEffects(op: Operation): { available: bigint; reserved: bigint } {
  if (op.typeOperation === "payIn") {
    const credit =
      op.status === "success"
        ? toScale4(op.amountInCurrencyBalance) - toScale4(op.amountComissionInCurrencyBalance)
        : 0n;
    return { available: credit, reserved: 0n };
  }
  if (op.status === "failed") return { available: 0n, reserved: 0n };
  const requirement = toScale4(op.amountInCurrencyBalance) + toScale4(op.amountComissionInCurrencyBalance);
  return { available: -requirement, reserved: FINAL_STATUSES.has(op.status) ? 0n : requirement };
}
