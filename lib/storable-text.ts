/**
 * Text PostgreSQL can store. Two characters a JavaScript string may hold cannot be:
 * - U+0000: refused in `text` ("invalid byte sequence") and, escaped, in `jsonb` ("unsupported Unicode
 *   escape sequence");
 * - a lone UTF-16 surrogate (`"\ud800"` in JSON text parses to one): `JSON.stringify` writes it as the
 *   escape `\ud800`, which `jsonb` refuses ("invalid input syntax for type json"); in `text` the driver's
 *   UTF-8 encoding turns it into U+FFFD silently.
 * Input from outside is refused with the place named (lib/platform/webhook-body.ts); what Paydesk writes
 * itself from such input (an error message, a parser's complaint) goes through `storableJson`.
 * Pure: no database, no server-only.
 */

/** U+0000 or a lone surrogate (with the `u` flag, `\p{Cs}` matches only an unpaired one). */
export const UNSTORABLE_CHARACTER = /[\u0000\p{Cs}]/u;
const UNSTORABLE_ALL = /[\u0000\p{Cs}]/gu;

/** `\u0000` or `\ud800`: the character as its JSON escape, to name it in a message. */
export function escapeOf(character: string): string {
  return `\\u${character.charCodeAt(0).toString(16).padStart(4, "0")}`;
}

/** The text with each unstorable character written as its escape: storable, and shows what it was. */
export function withVisibleEscapes(text: string): string {
  return text.replace(UNSTORABLE_ALL, escapeOf);
}

/** The text with each unstorable character replaced by U+FFFD. */
export function storableText(text: string): string {
  return text.replace(UNSTORABLE_ALL, "\uFFFD");
}

/** storableText of a text that may be missing (a platform's optional field). */
export function storableOrNull(text: string | null): string | null {
  return text === null ? null : storableText(text);
}

// In JSON.stringify's output an escaped NUL, or any escaped surrogate (it writes a pair as its
// characters, so an escaped one is lone), not preceded by an odd number of backslashes (which would
// make it text: `\\u0000`).
const UNSTORABLE_ESCAPE = /(?<!\\)((?:\\\\)*)\\u(?:0000|d[89a-f][0-9a-f]{2})/gi;

/**
 * JSON text of `value` that `jsonb` accepts: each unstorable character, in any string or key, stored
 * as U+FFFD. `json` is JSON.stringify's output (or text of the same form).
 */
export function storableJsonText(json: string): string {
  return json.includes("\\u") ? json.replace(UNSTORABLE_ESCAPE, "$1\\ufffd") : json;
}

/** `storableJsonText(JSON.stringify(value))`. */
export function storableJson(value: unknown): string {
  return storableJsonText(JSON.stringify(value));
}

/** A copy of a JSON value (a note's arguments) with each unstorable character, in any string or key, as U+FFFD. */
export function storableValue<T>(value: T): T {
  return JSON.parse(storableJson(value)) as T;
}
