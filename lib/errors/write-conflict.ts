// A transaction PostgreSQL ended because it collided with another one: deadlock_detected (40P01) or
// serialization_failure (40001). Nothing of it was written, so doing it again is safe. Prisma 7 with
// @prisma/adapter-pg reports it as P2010 with the adapter's cause (kind TransactionWriteConflict, the
// SQLSTATE as originalCode; tests/integration/db/write-conflict.test.ts provokes a real deadlock);
// pg on its own gives the SQLSTATE as `code`.
const SQLSTATES = new Set(["40P01", "40001"]);

type ErrorLike = {
  code?: unknown;
  meta?: { driverAdapterError?: { cause?: { kind?: unknown; originalCode?: unknown } } };
};

export function isWriteConflict(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  const e = error as ErrorLike;
  const cause = e.meta?.driverAdapterError?.cause;
  if (cause?.kind === "TransactionWriteConflict") return true;
  if (typeof cause?.originalCode === "string" && SQLSTATES.has(cause.originalCode)) return true;
  return typeof e.code === "string" && SQLSTATES.has(e.code);
}
