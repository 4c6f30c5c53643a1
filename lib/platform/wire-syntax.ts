/**
 * Invalid JSON from the wire, told by its kind and its position (a character index in the text as
 * received) only. The parsers' own messages quote the text at the error: lossless-json the whole
 * number it could not read (`Invalid number '4276123456789012.'`), V8 the characters around it. A
 * webhook's note is shown to staff who see recipient numbers only masked, and logs keep it too.
 */

export class WireSyntaxError extends SyntaxError {
  override readonly name = "WireSyntaxError";
  constructor(
    readonly kind: string,
    readonly position: number | null,
  ) {
    super(position === null ? kind : `${kind} at position ${position}`);
  }
}

// lossless-json's messages by their opening words (one that starts another comes first), with the kind
// each is reported as; what the message quotes after them is never kept.
const KINDS: readonly (readonly [opening: string, kind: string])[] = [
  ["Invalid number", "invalid number"],
  ["End of string", "unterminated string"],
  ["Invalid escape character", "invalid escape in a string"],
  ["Invalid unicode character", "invalid unicode escape in a string"],
  ["Invalid character", "control character in a string"],
  ["Duplicate key", "duplicate key"],
  ["Comma", "comma expected"],
  ["Colon", "colon expected"],
  ["Quoted object key or end", "key or end of object expected"],
  ["Quoted object key", "key expected"],
  ["Object value expected", "value expected"],
  ["Array item or end", "item or end of array expected"],
  ["Array item expected", "item expected"],
  ["JSON value expected", "value expected"],
  ["Expected end of input", "end of input expected"],
];

/** lossless-json's error as a WireSyntaxError; `offset` is added to its position (a stripped BOM). */
export function wireSyntaxError(error: SyntaxError, offset = 0): WireSyntaxError {
  const { message } = error;
  const kind = KINDS.find(([opening]) => message.startsWith(opening))?.[1] ?? "invalid JSON";
  const atEnd = /but reached end of input at position \d+$/.test(message);
  const at = /at position (\d+)$/.exec(message);
  return new WireSyntaxError(
    atEnd ? `${kind}, end of input reached` : kind,
    at ? Number(at[1]) + offset : null,
  );
}
