/**
 * Webhook bodies. The spec sends the operation inside the response envelope; one integration received
 * the bare operation. Accepted: spec envelope, nested envelope, bare operation. Numbers stay exact.
 * The caller stores the raw text first (request.text()), then parses.
 *
 * Refused whatever its form: a body holding, anywhere (a value or a key, in the envelope or in the
 * operation), text PostgreSQL cannot store (an escaped `\u0000`, or a lone surrogate such as `\ud800`:
 * see lib/storable-text.ts), one nested deeper than MAX_DEPTH, and a traceID longer than
 * TRACE_ID_MAX_LENGTH. Each would make the delivery, its note or its mirror write fail, or the parse
 * itself (a 503 the platform answers by sending it again, forever). An amount in exponent notation, or
 * with more digits than its column holds, makes the operation invalid (wire.ts, decimalFromWire).
 * A leading byte order mark is ignored; the note of a body that is not JSON says what and where only.
 */
import "server-only";
import { UNSTORABLE_CHARACTER, escapeOf, withVisibleEscapes } from "@/lib/storable-text";
import { readEnvelope } from "./envelope";
import { SchemaMismatchError, decodeOperation, describeIssues, type Operation } from "./schemas";
import { WireSyntaxError, isWireObject, parseWireJson, type WireValue } from "./wire";

/**
 * The spec's traceID is a UUID (36 characters); a longer one is taken up to this many characters. Past
 * it the body is refused: an index entry cannot hold a traceID of a few kilobytes.
 */
export const TRACE_ID_MAX_LENGTH = 200;

/**
 * How deep objects and arrays may nest (an operation in its envelope needs 3 or 4 levels). A deeper
 * body is refused: a few thousand levels, a few kilobytes of `[`, would exhaust the stack of the
 * recursive steps that follow (and jsonb's own limit).
 */
export const MAX_DEPTH = 32;

export type WebhookBodyForm = "envelope" | "nested" | "bare";

export interface WebhookBody {
  operation: Operation;
  traceID: string | null;
  form: WebhookBodyForm;
}

export type WebhookBodyErrorReason =
  | "empty"
  | "not-json"
  | "not-an-object"
  | "unstorable-text"
  | "too-deep"
  | "trace-id-too-long"
  | "not-success"
  | "no-operation"
  | "invalid-operation";

export class WebhookBodyError extends Error {
  override readonly name = "WebhookBodyError";
  constructor(
    readonly reason: WebhookBodyErrorReason,
    message: string,
    readonly traceID: string | null = null,
    /** The facts behind the message, for a note worded in the reader's language (outcome-notes.ts). */
    readonly facts: {
      detail?: string;
      status?: string;
      codeError?: string | null;
      /** trace-id-too-long: the traceID's length and the limit; too-deep: the limit */
      length?: number;
      limit?: number;
    } = {},
  ) {
    super(message);
  }
}

export function parseWebhookBody(text: string): WebhookBody {
  if (text.trim() === "") throw new WebhookBodyError("empty", "Webhook body is empty");
  let value: WireValue;
  try {
    value = parseWireJson(text);
  } catch (e) {
    // Never another parser's message: those quote the body (wire-syntax.ts).
    const detail = e instanceof WireSyntaxError ? e.message : e instanceof Error ? e.name : "invalid JSON";
    throw new WebhookBodyError("not-json", `Webhook body is not JSON: ${detail}`, null, { detail });
  }
  if (!isWireObject(value)) throw new WebhookBodyError("not-an-object", "Webhook body is not a JSON object");
  const unstorable = unstorablePart(value);
  if (unstorable === "too-deep") {
    const limit = MAX_DEPTH;
    throw new WebhookBodyError("too-deep", `Webhook body is nested deeper than ${limit}`, null, { limit });
  }
  if (unstorable !== null) {
    const detail = `${unstorable.path}: holds ${unstorable.what}`;
    throw new WebhookBodyError("unstorable-text", `Webhook body ${detail}`, null, { detail });
  }

  const envelope = readEnvelope(value);
  if (envelope) {
    const form: WebhookBodyForm = envelope.dialect === "nested" ? "nested" : "envelope";
    const length = envelope.traceID?.length ?? 0;
    if (length > TRACE_ID_MAX_LENGTH) {
      throw new WebhookBodyError(
        "trace-id-too-long",
        `Webhook traceID is ${length} characters long, more than ${TRACE_ID_MAX_LENGTH}`,
        null,
        { length, limit: TRACE_ID_MAX_LENGTH },
      );
    }
    if (!envelope.ok) {
      throw new WebhookBodyError(
        "not-success",
        `Webhook envelope has status ${envelope.status} (${envelope.codeError ?? "no code"})`,
        envelope.traceID,
        { status: String(envelope.status), codeError: envelope.codeError ?? null },
      );
    }
    if (!isWireObject(envelope.data))
      throw new WebhookBodyError(
        "no-operation",
        "Webhook envelope carries no operation object",
        envelope.traceID,
      );
    return { operation: decode(envelope.data, envelope.traceID), traceID: envelope.traceID, form };
  }
  return { operation: decode(value, null), traceID: null, form: "bare" };
}

function decode(value: WireValue, traceID: string | null): Operation {
  try {
    return decodeOperation(value, "webhook operation");
  } catch (e) {
    if (e instanceof SchemaMismatchError) {
      throw new WebhookBodyError("invalid-operation", e.message, traceID, {
        detail: describeIssues(e.issues),
      });
    }
    throw e;
  }
}

// The path in a note names the place; it does not copy the body: each key is cut to PATH_KEY_SHOWN
// characters and the path to its last PATH_SHOWN.
const PATH_KEY_SHOWN = 64;
const PATH_SHOWN = 300;

type Visit = { value: WireValue; segment: string | number; parent: Visit | null; depth: number };

/**
 * "too-deep" when objects and arrays nest more than MAX_DEPTH levels; else the first string or key
 * (depth first, in document order) that holds a character PostgreSQL cannot store: its path
 * (`data.paymentDetailsData.nameMediator`, `list[1]`) and what it holds, both with such characters
 * written as escapes, so that the note naming them can be stored. Null when neither.
 * Iterative, and the path is only built for what is found: the recursive steps after it (the
 * operation's schema, its raw copy) never see a body deep enough to exhaust the stack.
 */
function unstorablePart(root: WireValue): { path: string; what: string } | "too-deep" | null {
  const stack: Visit[] = [{ value: root, segment: "", parent: null, depth: 0 }];
  for (let visit = stack.pop(); visit; visit = stack.pop()) {
    const { value } = visit;
    const depth = visit.depth + 1;
    if ((Array.isArray(value) || isWireObject(value)) && depth > MAX_DEPTH) return "too-deep";
    if (typeof value === "string") {
      const found = UNSTORABLE_CHARACTER.exec(value);
      if (found) return { path: pathOf(visit), what: characterWords(found[0]) };
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--)
        stack.push({ value: value[i]!, segment: i, parent: visit, depth });
    } else if (isWireObject(value)) {
      const keys = Object.keys(value);
      for (const key of keys) {
        const found = UNSTORABLE_CHARACTER.exec(key);
        if (found) {
          const at: Visit = { value: null, segment: key, parent: visit, depth };
          return { path: pathOf(at), what: characterWords(found[0]) };
        }
      }
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i]!;
        stack.push({ value: value[key]!, segment: key, parent: visit, depth });
      }
    }
  }
  return null;
}

/** `data.list[1].x`, keys and the whole cut short (never between the two halves of a pair), escaped. */
function pathOf(visit: Visit): string {
  const segments: (string | number)[] = [];
  for (let v: Visit | null = visit; v?.parent; v = v.parent) segments.push(v.segment);
  let path = "";
  for (const segment of segments.reverse()) {
    if (typeof segment === "number") path += `[${segment}]`;
    else path += (path ? "." : "") + cutEnd(segment, PATH_KEY_SHOWN);
  }
  return withVisibleEscapes(cutStart(path, PATH_SHOWN));
}

const isHigh = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLow = (code: number) => code >= 0xdc00 && code <= 0xdfff;

function cutEnd(text: string, max: number): string {
  if (text.length <= max) return text;
  const end = isHigh(text.charCodeAt(max - 1)) && isLow(text.charCodeAt(max)) ? max - 1 : max;
  return `${text.slice(0, end)}…`;
}

function cutStart(text: string, max: number): string {
  if (text.length <= max) return text;
  const start = text.length - max;
  return `…${text.slice(isLow(text.charCodeAt(start)) && isHigh(text.charCodeAt(start - 1)) ? start + 1 : start)}`;
}

function characterWords(character: string): string {
  return character === "\u0000" ? "a NUL character (\\u0000)" : `a lone surrogate (${escapeOf(character)})`;
}
