import type { WordedNote } from "@/lib/i18n/worded-note";

/** A stored note in the reader's words, and what it quotes as it is (set apart, not to be translated). */
export function NoteText({ note }: { note: WordedNote | null }) {
  if (!note) return null;
  return (
    <>
      {note.text}
      {note.text && note.data !== null && " "}
      {note.data !== null && (
        <span translate="no" className="font-mono" data-raw="">
          {note.data}
        </span>
      )}
      {note.after && ` ${note.after}`}
    </>
  );
}
