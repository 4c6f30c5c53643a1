/**
 * What happened to a webhook delivery, beyond its outcome: stored as a code and its arguments
 * (WebhookDelivery.outcomeCode / outcomeArgs) by the receiver, the worker and "process again", and
 * worded when shown, in the reader's language (messages/<locale>/webhooks.json, `notes`).
 * A row from before the codes keeps its English sentence in outcomeDetail: shown as data.
 * Pure: no database, no server-only (the operation page's component words it too).
 */
import { argsObject, count, instant, list, text, type WordedNote, type Words } from "@/lib/i18n/worded-note";
import type { UnconfirmedReason } from "@/lib/operations/mirror/apply-snapshot";
import type { WebhookBodyError } from "@/lib/platform/webhook-body";

/** A refused or malformed body keeps only its first bytes: how many, of how many. */
export type Cut = { cut?: { kept: number; total: number; totalKind: "exact" | "declared" | "atLeast" } };

/** What an applied snapshot did when it was not news (null traceID: the webhook carried none). */
export type AppliedNote = "alreadyMirrored" | "olderThanMirror" | "wouldChangeFinal";

type ArgsByCode = {
  // receiver: refused or malformed
  wrongPathSecret: Cut;
  ipNotAllowed: { ip: string | null } & Cut;
  wrongBearerToken: Cut;
  bodyTooLarge: { bytes: number | null; limit: number } & Cut;
  bodyHasNul: Cut;
  bodyEmpty: Cut;
  /** the parse error's kind and position (`invalid number at position 76`), never the text there */
  bodyNotJson: { detail: string } & Cut;
  bodyNotObject: Cut;
  /** where the body holds U+0000 or a lone surrogate, and which (escaped) */
  bodyUnstorableText: { detail: string } & Cut;
  bodyTooDeep: { limit: number } & Cut;
  traceIdTooLong: { length: number; limit: number } & Cut;
  envelopeNotSuccess: { status: string; codeError: string | null } & Cut;
  envelopeNoOperation: Cut;
  operationInvalid: { detail: string } & Cut;
  // worker
  alreadyMirrored: { traceID: string | null };
  olderThanMirror: { traceID: string | null };
  wouldChangeFinal: { traceID: string | null };
  readBackFailed: { attempts: number; error: string };
  /** processing threw (anything but a failed read-back) on every attempt: the last error */
  processingFailed: { attempts: number; error: string };
  /** claimed more times than processing is tried, none of them finished (a killed process) */
  processingUnfinished: { attempts: number };
  unknownToPlatform: { operationId: string };
  readBackStatusDiffers: { said: string; read: string };
  readBackFieldsDiffer: { fields: string[] };
  readBackDateAhead: { at: string };
  readBack: UnconfirmedReason & { then: AppliedNote | null; traceID: string | null };
  // "process again"
  reprocessRequested: { was: string };
};

export type OutcomeCode = keyof ArgsByCode;
export type OutcomeNote = { [C in OutcomeCode]: { code: C; args: ArgsByCode[C] } }[OutcomeCode];

/** Every code, for the tests that hold each to its words in both languages. */
export const OUTCOME_CODES = [
  "wrongPathSecret",
  "ipNotAllowed",
  "wrongBearerToken",
  "bodyTooLarge",
  "bodyHasNul",
  "bodyEmpty",
  "bodyNotJson",
  "bodyNotObject",
  "bodyUnstorableText",
  "bodyTooDeep",
  "traceIdTooLong",
  "envelopeNotSuccess",
  "envelopeNoOperation",
  "operationInvalid",
  "alreadyMirrored",
  "olderThanMirror",
  "wouldChangeFinal",
  "readBackFailed",
  "processingFailed",
  "processingUnfinished",
  "unknownToPlatform",
  "readBackStatusDiffers",
  "readBackFieldsDiffer",
  "readBackDateAhead",
  "readBack",
  "reprocessRequested",
] as const satisfies readonly OutcomeCode[];

export const UNCONFIRMED_REASONS = ["notMirrored", "finalStatus", "dateAhead", "differsFromMirror"] as const;

/** The columns a note is stored in. */
export function storedNote(note: OutcomeNote | null): {
  outcomeCode: string | null;
  outcomeArgs: object | null;
} {
  return note ? { outcomeCode: note.code, outcomeArgs: note.args } : { outcomeCode: null, outcomeArgs: null };
}

export type StoredOutcome = {
  outcomeCode: string | null;
  outcomeArgs: unknown;
  outcomeDetail: string | null;
};

const N = "webhooks.notes";

/**
 * The note in the reader's words; null when there is none. `when` formats an ISO instant for the reader.
 * A code this release does not know (written by a newer one) shows its name and arguments as data.
 */
export function wordOutcome(
  t: Words,
  stored: StoredOutcome,
  when: (iso: string) => string,
): WordedNote | null {
  const { outcomeCode: code } = stored;
  if (code === null) return stored.outcomeDetail ? { text: "", data: stored.outcomeDetail } : null;
  const args = argsObject(stored.outcomeArgs);
  const status = (s: unknown) =>
    t.has(`statuses.operationStatus.${text(s)}`) ? t(`statuses.operationStatus.${text(s)}`) : text(s);
  const trace = (v: unknown) => (typeof v === "string" && v ? t(`${N}.webhookTrace`, { traceID: v }) : "");
  const sentences = (...parts: string[]) => parts.filter(Boolean).join(" ");
  const cut = argsObject(args.cut);
  const cutWords =
    "kept" in cut
      ? t(`${N}.cut`, { kept: count(cut.kept), total: count(cut.total), totalKind: text(cut.totalKind) })
      : "";
  const plain = (values: Record<string, string | number> = {}) =>
    ({ text: sentences(t(`${N}.${code}`, values), cutWords), data: null }) satisfies WordedNote;

  switch (code as OutcomeCode) {
    case "wrongPathSecret":
    case "wrongBearerToken":
    case "bodyHasNul":
    case "bodyEmpty":
    case "bodyNotObject":
    case "envelopeNoOperation":
      return plain();
    case "ipNotAllowed":
      return plain({ ip: typeof args.ip === "string" ? args.ip : t("webhooks.delivery.unknown") });
    case "bodyTooLarge":
      return typeof args.bytes === "number"
        ? plain({ bytes: args.bytes, limit: count(args.limit) })
        : {
            text: sentences(t(`${N}.bodyTooLargeUnknown`, { limit: count(args.limit) }), cutWords),
            data: null,
          };
    case "bodyNotJson":
    case "bodyUnstorableText":
    case "operationInvalid":
      return { text: t(`${N}.${code}`), data: text(args.detail), ...(cutWords && { after: cutWords }) };
    case "bodyTooDeep":
      return plain({ limit: count(args.limit) });
    case "processingUnfinished":
      return plain({ attempts: count(args.attempts) });
    case "traceIdTooLong":
      return plain({ length: count(args.length), limit: count(args.limit) });
    case "envelopeNotSuccess":
      return plain({ status: text(args.status), codeError: text(args.codeError) || "—" });
    case "alreadyMirrored":
    case "olderThanMirror":
    case "wouldChangeFinal":
      return { text: sentences(t(`${N}.${code}`), trace(args.traceID)), data: null };
    case "readBackFailed":
    case "processingFailed":
      return { text: t(`${N}.${code}`, { attempts: count(args.attempts) }), data: text(args.error) };
    case "unknownToPlatform":
      return { text: t(`${N}.unknownToPlatform`), data: text(args.operationId) };
    case "readBackStatusDiffers":
      return plain({ said: status(args.said), read: status(args.read) });
    case "readBackFieldsDiffer":
      return { text: t(`${N}.readBackFieldsDiffer`), data: list(args.fields) };
    case "readBackDateAhead":
      return plain({ at: instant(args.at, when) });
    case "readBack": {
      const why = text(args.why);
      const reason = (UNCONFIRMED_REASONS as readonly string[]).includes(why)
        ? t(`${N}.why.${why}`, {
            status: status(args.status),
            at: instant(args.at, when),
            fields: list(args.fields),
          })
        : t(`${N}.why.unconfirmed`);
      const then = typeof args.then === "string" && t.has(`${N}.${args.then}`) ? t(`${N}.${args.then}`) : "";
      return {
        text: sentences(t(`${N}.readBack`, { reason }), then, then ? trace(args.traceID) : ""),
        data: null,
      };
    }
    case "reprocessRequested": {
      const was = text(args.was);
      return plain({ was: t.has(`webhooks.outcome.${was}`) ? t(`webhooks.outcome.${was}`) : was });
    }
    default:
      return { text: "", data: [code, JSON.stringify(stored.outcomeArgs ?? {})].join(" ") };
  }
}

/**
 * Why the body is not a webhook, as a note (what the parser found, when it says, as data). Also
 * the note of a delivery stored before a check existed and refused by it when processed (process.ts):
 * one mapping from the parser's reasons to the receiver's codes, beside the codes.
 */
export function bodyErrorNote(error: WebhookBodyError): OutcomeNote {
  const { detail = "", status = "", codeError = null, length = 0, limit = 0 } = error.facts;
  switch (error.reason) {
    case "empty":
      return { code: "bodyEmpty", args: {} };
    case "not-json":
      return { code: "bodyNotJson", args: { detail } };
    case "not-an-object":
      return { code: "bodyNotObject", args: {} };
    case "unstorable-text":
      return { code: "bodyUnstorableText", args: { detail } };
    case "too-deep":
      return { code: "bodyTooDeep", args: { limit } };
    case "trace-id-too-long":
      return { code: "traceIdTooLong", args: { length, limit } };
    case "not-success":
      return { code: "envelopeNotSuccess", args: { status, codeError } };
    case "no-operation":
      return { code: "envelopeNoOperation", args: {} };
    case "invalid-operation":
      return { code: "operationInvalid", args: { detail } };
  }
}
