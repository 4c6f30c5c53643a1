import type { Direction, Operation, Status } from "./types";
import { FINAL_STATUSES } from "./types";

/**
 * The transitions table of "States and transitions". Every move of the table emits a webhook event
 * ("Event emission": created -> in_progress, in_progress -> final, every move through booking or
 * pending_retry). precreated -> created happens only when the end client picks a method on the form.
 */

interface Transition {
  from: Status;
  to: Status;
  directions: readonly Direction[];
}

const BOTH: readonly Direction[] = ["payIn", "payOut"];

export const TRANSITIONS: readonly Transition[] = [
  { from: "created", to: "in_progress", directions: BOTH },
  { from: "created", to: "booking", directions: ["payIn"] },
  { from: "booking", to: "in_progress", directions: ["payIn"] },
  { from: "created", to: "pending_retry", directions: ["payOut"] },
  { from: "pending_retry", to: "in_progress", directions: ["payOut"] },
  { from: "in_progress", to: "success", directions: BOTH },
  { from: "in_progress", to: "failed", directions: BOTH },
];

export const STATUSES: readonly Status[] = [
  "precreated",
  "created",
  "booking",
  "pending_retry",
  "in_progress",
  "success",
  "failed",
];

export function isStatus(value: unknown): value is Status {
  return typeof value === "string" && (STATUSES as readonly string[]).includes(value);
}

export type TransitionCheck = { ok: true } | { ok: false; reason: string };

export function checkTransition(
  op: Pick<Operation, "status" | "typeOperation">,
  to: Status,
): TransitionCheck {
  if (FINAL_STATUSES.has(op.status))
    return { ok: false, reason: `status ${op.status} is final and never changes` };
  if (op.status === "precreated") {
    return {
      ok: false,
      reason:
        "a precreated operation becomes created only when the end client selects a method on the payment form",
    };
  }
  const row = TRANSITIONS.find((transition) => transition.from === op.status && transition.to === to);
  if (row === undefined)
    return { ok: false, reason: `the transitions table has no move from ${op.status} to ${to}` };
  if (!row.directions.includes(op.typeOperation)) {
    return {
      ok: false,
      reason: `${op.status} -> ${to} applies to ${row.directions.join(" and ")} operations only, this one is ${op.typeOperation}`,
    };
  }
  return { ok: true };
}

/** Statuses an operation may move to next (for the control page's buttons). */
export function nextStatuses(op: Pick<Operation, "status" | "typeOperation">): Status[] {
  return TRANSITIONS.filter((row) => row.from === op.status && row.directions.includes(op.typeOperation)).map(
    (row) => row.to,
  );
}
