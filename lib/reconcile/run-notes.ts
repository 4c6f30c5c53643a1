/**
 * Why a reconciliation run stopped, or why it failed: stored as a code and its arguments
 * (ReconciliationRun.stopCode / stopArgs, errorCode with the caught message in `error`) and worded when
 * shown, in the reader's language (messages/<locale>/reconciliation.json, `runs.notes`). A run from
 * before the codes keeps its English sentence in stopReason: shown as data. Pure: no database.
 */
import { argsObject, count, instant, type WordedNote, type Words } from "@/lib/i18n/worded-note";

export type StopNote =
  | { code: "endOfList"; args: Record<string, never> }
  /** Runs from before open operations were read by id: the bound was also the oldest open operation. */
  | { code: "passedLowerBound"; args: { at: string } }
  | { code: "passedWatermark"; args: { at: string; readById: number } };
export type ErrorCode = "interrupted" | "failed";

/** Codes no run writes any more; runs stored with them are still worded. */
export const FORMER_STOP_CODES = ["passedLowerBound"] as const satisfies readonly StopNote["code"][];
/** Every code, for the tests that hold each to its words in both languages. */
export const STOP_CODES = [
  "endOfList",
  "passedLowerBound",
  "passedWatermark",
] as const satisfies readonly StopNote["code"][];
export const ERROR_CODES = ["interrupted", "failed"] as const satisfies readonly ErrorCode[];

export type StoredRunNote = {
  stopCode: string | null;
  stopArgs: unknown;
  stopReason: string | null;
  errorCode: string | null;
  /** The caught error's message (errorCode failed), or an old row's whole error text. */
  error: string | null;
};

const N = "reconciliation.runs.notes";

/** The run's note for the reader: its error if it failed, else why it stopped; null when there is none. */
export function wordRunNote(t: Words, run: StoredRunNote, when: (iso: string) => string): WordedNote | null {
  if (run.errorCode === "interrupted") return { text: t(`${N}.interrupted`), data: null };
  if (run.errorCode === "failed") return { text: t(`${N}.failed`), data: run.error ?? "" };
  if (run.error) return { text: "", data: run.error };
  if (run.stopCode === "endOfList") return { text: t(`${N}.endOfList`), data: null };
  if (run.stopCode === "passedLowerBound" || run.stopCode === "passedWatermark") {
    const args = argsObject(run.stopArgs);
    const at = instant(args.at, when);
    return { text: t(`${N}.${run.stopCode}`, { at, readById: count(args.readById) }), data: null };
  }
  if (run.stopCode) return { text: "", data: [run.stopCode, JSON.stringify(run.stopArgs ?? {})].join(" ") };
  return run.stopReason ? { text: "", data: run.stopReason } : null;
}
