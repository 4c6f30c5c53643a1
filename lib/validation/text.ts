/**
 * Human text that is sent to the platform or shown to another person (names, comments, notes) must
 * read as what it is: an approver once saw `Ivan ‮gnp.exe` because a bidi override (U+202E) turned
 * the rest of the name around. Client-safe, so forms show the same message the server returns.
 *
 * Refused, wherever they appear in the value:
 * - controls (Cc): C0 (NUL, tab, CR...), DEL and C1 (U+0080-U+009F, including NEL U+0085); a
 *   multi-line field accepts a line break (\n, or \r\n as a browser may send it) and nothing else;
 * - format characters (Cf): bidi embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069,
 *   U+200E/U+200F, U+061C), zero-width characters (U+200B-U+200D, U+2060, U+FEFF), soft hyphen,
 *   tag characters...; the zero-width joiner only between two emoji (family and profession emoji);
 * - line and paragraph separators (Zl, Zp), lone surrogates (Cs), noncharacters (U+FFFE...);
 * - letters, marks and symbols that render as nothing (Hangul fillers U+115F, U+1160, U+3164, U+FFA0,
 *   U+034F, U+17B4/U+17B5, the Braille blank U+2800) and the default-ignorable code points Unicode has
 *   not assigned yet (U+2065, U+FFF0-U+FFF8, in U+E0000-U+E0FFF: a renderer shows them as nothing),
 *   used to fake empty or look-alike names.
 * A field (unsafeTextProblem, safeText) also refuses a value made only of combining marks (\p{M}: an
 * accent, a variation selector) and spaces: with no letter to sit on it renders as nothing, or as a
 * stray accent (a lone U+0301). Named by its first mark. Empty text is the field's own question.
 * Ordinary letters of any script (with their marks: ё typed as е + U+0308 passes), digits, punctuation,
 * spaces and emoji pass.
 */
import type { z } from "zod";
import { fieldMessage } from "@/lib/validation/field-names";
import type { Problem } from "@/lib/i18n/issues";

const FORBIDDEN =
  /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\p{Noncharacter_Code_Point}\u034F\u115F\u1160\u17B4\u17B5\u2800\u3164\uFFA0\u2065\uFFF0-\uFFF8\u{E0000}\u{E0002}-\u{E001F}\u{E0080}-\u{E00FF}\u{E01F0}-\u{E0FFF}]/u;
/** Nothing a mark can sit on: combining marks and white space only. */
const MARKS_ONLY = /^[\p{M}\s]+$/u;
const MARK = /\p{M}/u;
const PICTOGRAPH = /\p{Extended_Pictographic}/u;
/** What may stand between an emoji and a joiner: variation selector-16 and skin-tone modifiers. */
const EMOJI_TAIL = /[\uFE0F\u{1F3FB}-\u{1F3FF}]/u;
const ZWJ = "\u200D";

export type TextOptions = {
  /** A textarea: line breaks are part of the text. */
  multiline?: boolean;
};

function joinsEmoji(chars: string[], at: number): boolean {
  let before = at - 1;
  while (before >= 0 && EMOJI_TAIL.test(chars[before]!)) before--;
  const next = chars[at + 1];
  return before >= 0 && PICTOGRAPH.test(chars[before]!) && next !== undefined && PICTOGRAPH.test(next);
}

/** `U+202E` for a character (its first code point). */
export function codePointLabel(char: string): string {
  return `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}`;
}

/** The first character the text must not contain, as `U+XXXX`; null when the text is clean. */
export function forbiddenCharacter(value: string, options: TextOptions = {}): string | null {
  if (!FORBIDDEN.test(value)) return null;
  const chars = Array.from(value);
  for (let i = 0; i < chars.length; i++) {
    const char = chars[i]!;
    if (!FORBIDDEN.test(char)) continue;
    if (options.multiline && (char === "\n" || (char === "\r" && chars[i + 1] === "\n"))) continue;
    if (char === ZWJ && joinsEmoji(chars, i)) continue;
    return codePointLabel(char);
  }
  return null;
}

/**
 * The field's problem with text holding a forbidden character (the catalog key of the field's sentence,
 * the character as `U+XXXX`), or null when the text is clean.
 */
export function unsafeTextProblem(label: string, value: string, options: TextOptions = {}): Problem | null {
  const found = forbiddenCharacter(value, options) ?? loneMark(value);
  return found ? { message: fieldMessage(label, "invisible"), params: { char: found } } : null;
}

/** The first mark of a value made only of combining marks and spaces, as `U+XXXX`; otherwise null. */
function loneMark(value: string): string | null {
  if (!MARKS_ONLY.test(value)) return null;
  const mark = Array.from(value).find((c) => MARK.test(c));
  return mark === undefined ? null : codePointLabel(mark);
}

/**
 * A zod refinement for a human-text field: `.superRefine(safeText("recipient name"))`. It aborts the
 * field's later checks (one clear message, not a second one about a format the value never had).
 */
export function safeText(label: string, options: TextOptions = {}) {
  return (value: string, ctx: z.RefinementCtx) => {
    const problem = unsafeTextProblem(label, value, options);
    if (problem) ctx.addIssue({ code: "custom", ...problem, continue: false });
  };
}

/**
 * Text typed into a filter (search boxes, audit filters, trace lookup) is held to the same rule: some
 * of these characters break things further on (PostgreSQL refuses a NUL in a text parameter: a 500,
 * or a CSV cut short after its 200) and none has a use in a search. True when the text holds none.
 */
export function isUsableFilterText(value: string): boolean {
  return forbiddenCharacter(value) === null;
}
