/**
 * The randomised amount to show and compare: `amountRandomized` when set and non-zero, else
 * `amountInitial` (with randomisation off the spec says they are equal; deployments send 0, wire notes).
 * Generic over the decimal type, so a wire Operation and a mirror row (Prisma's Decimal) both fit.
 */
export function effectiveAmountRandomized<D extends { isZero(): boolean }>(op: {
  amountInitial: D;
  amountRandomized: D | null;
}): D {
  return op.amountRandomized && !op.amountRandomized.isZero() ? op.amountRandomized : op.amountInitial;
}
