import type { WordedNote } from "@/lib/i18n/worded-note";

/** A stored note in the reader's words, and what it quotes as it is (set apart, not to be translated). */
export function NoteText({ note }: { note: WordedNote | null }) {
  if (!note) return null;
  return (
    <>
      {note.text}
      {note.text && note.data !== null && " "}
      {note.data !== null && (
        // bdi: bidi control characters in stored data cannot reorder the words around it
        <bdi translate="no" className="font-mono" data-raw="">
          {note.data}
        </bdi>
      )}
      {note.after && ` ${note.after}`}
    </>
  );
}
