/**
 * A drift item in the reader's words (messages/<locale>/reconciliation.json, `drift`): its fields by their
 * names, each side's values as lines, and, for a disagreement the run did not repair, what the mirror
 * keeps. The kind's words and explanation are `drift.kinds.<kind>` and `drift.explain.<kind>`. Pure: no
 * database; the page passes its formatters for amounts and instants.
 */
import type { DriftKind } from "@/lib/generated/prisma/enums";
import { argsObject, type Words } from "@/lib/i18n/worded-note";
import { MONEY_FIELDS, type MirroredField } from "@/lib/operations/mirror/mirror-fields";

export type DriftReader = {
  t: Words;
  /** An exact decimal string in the reader's notation. */
  amount: (value: string) => string;
  /** An ISO instant in the reader's zone. */
  when: (iso: string) => string;
};

const D = "reconciliation.drift";
const DATES = new Set(["dateAdded", "dateUpdated"]);
const CONFLICTS = new Set<DriftKind>(["statusMismatch", "amountMismatch", "fieldMismatch"]);

/** A mirrored (or platform) field by its name; a name with no words (a new platform field) as it is. */
export function fieldName(r: DriftReader, field: string): string {
  const key = `${D}.fields.${field}`;
  return r.t.has(key) ? r.t(key) : field;
}

/** One field's value for the reader: a status in words, amounts and instants in the reader's notation. */
function fieldValue(r: DriftReader, field: string, value: unknown): string {
  if (value === null || value === undefined) return "—";
  if (typeof value !== "string") return JSON.stringify(value);
  const status = `statuses.operationStatus.${value}`;
  if (field === "status" && r.t.has(status)) return r.t(status);
  if (field !== "currency" && MONEY_FIELDS.has(field as MirroredField)) return r.amount(value);
  if (DATES.has(field) && !Number.isNaN(Date.parse(value))) return r.when(value);
  return value;
}

/** A side's values (mirror or platform) as "name: value" lines; null when it is not an object of fields. */
export function valueLines(r: DriftReader, value: unknown): string[] | null {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return null;
  return Object.entries(value).map(([field, v]) => `${fieldName(r, field)}: ${fieldValue(r, field, v)}`);
}

/**
 * What the mirror keeps of a disagreement the run left alone (a final status the platform disputes, an
 * operation the platform does not have), in a sentence; null when the run repaired it or the kind is
 * not about a value the mirror holds.
 */
export function keptByMirror(
  r: DriftReader,
  item: { kind: DriftKind; fields: string[]; mirrorValue: unknown; repairedAt: string | null },
): string | null {
  if (item.repairedAt) return null;
  const mirror = argsObject(item.mirrorValue);
  const describe = (fields: string[]) =>
    fields.map((f) => `${fieldName(r, f)}: ${fieldValue(r, f, mirror[f])}`).join("; ");
  if (CONFLICTS.has(item.kind) && item.fields.length > 0)
    return r.t(`${D}.notRepaired`, { value: describe(item.fields) });
  if (item.kind === "missingOnPlatform")
    return r.t(`${D}.notRepairedMissing`, { value: describe(["status", "amount"]) });
  return null;
}
