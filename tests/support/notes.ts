// Stored notes (a code and its arguments) as a reader sees them, in one language: text and data on one
// line, instants as stored ISO text.
import { catalogWords } from "@/lib/auth/translator";
import type { Locale } from "@/lib/i18n/locales";
import { noteLine } from "@/lib/i18n/worded-note";
import { wordRunNote, type StoredRunNote } from "@/lib/reconcile/run-notes";
import { wordOutcome, type StoredOutcome } from "@/lib/webhooks/outcome-notes";

const asStored = (row: StoredOutcome) => ({
  outcomeCode: row.outcomeCode,
  outcomeArgs: row.outcomeArgs,
  outcomeDetail: row.outcomeDetail,
});

export async function outcomeNoteIn(locale: Locale, row: StoredOutcome): Promise<string> {
  const note = wordOutcome(await catalogWords(locale), asStored(row), (iso) => iso);
  return note ? noteLine(note) : "";
}

export async function runNoteIn(locale: Locale, run: StoredRunNote): Promise<string> {
  const note = wordRunNote(await catalogWords(locale), run, (iso) => iso);
  return note ? noteLine(note) : "";
}
