/** Operation statuses and types as the platform writes them, and their normalisers (schemas.ts re-exports them). */
export const OPERATION_STATUSES = [
  "precreated",
  "created",
  "booking",
  "pending_retry",
  "in_progress",
  "success",
  "failed",
] as const;
export type OperationStatus = (typeof OPERATION_STATUSES)[number];
export const OPERATION_TYPES = ["payIn", "payOut"] as const;
export type OperationType = (typeof OPERATION_TYPES)[number];

const STATUS_BY_KEY = new Map<string, OperationStatus>(
  OPERATION_STATUSES.map((s) => [s.replace(/_/g, ""), s]),
);
const TYPE_BY_KEY = new Map<string, OperationType>(OPERATION_TYPES.map((t) => [t.toLowerCase(), t]));

/** Normalises case and separators: `Success`, `IN_PROGRESS`, `inProgress` -> canonical, else null. */
export function normaliseOperationStatus(value: string): OperationStatus | null {
  const key = value
    .trim()
    .toLowerCase()
    .replace(/[_\s-]/g, "");
  return STATUS_BY_KEY.get(key) ?? null;
}

export function normaliseOperationType(value: string): OperationType | null {
  return TYPE_BY_KEY.get(value.trim().toLowerCase()) ?? null;
}
