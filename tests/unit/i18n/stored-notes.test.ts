// Notes the receiver, the worker and reconciliation store are codes with arguments, worded when shown:
// every code the code writes has words in both languages (collected from the source text, as the audit
// action test does), each is worded with its arguments and no placeholder left, and a row from before
// the codes, or a code this release does not know, is shown as the data it is rather than lost.
import { readFileSync } from "node:fs";
import path from "node:path";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { createTranslator } from "use-intl/core";
import { describe, expect, it } from "vitest";
import { NoteText } from "@/components/ui/worded-note";
import type { Locale } from "@/lib/i18n/locales";
import { messagesFor } from "@/lib/i18n/messages";
import { asWords, noteLine, type Words } from "@/lib/i18n/worded-note";
import {
  ERROR_CODES,
  FORMER_STOP_CODES,
  STOP_CODES,
  wordRunNote,
  type StoredRunNote,
} from "@/lib/reconcile/run-notes";
import {
  OUTCOME_CODES,
  UNCONFIRMED_REASONS,
  wordOutcome,
  type OutcomeCode,
} from "@/lib/webhooks/outcome-notes";

const ROOT = process.cwd();
const read = (file: string) => readFileSync(path.join(ROOT, file), "utf8");
const words = (locale: Locale): Words => asWords(createTranslator({ locale, messages: messagesFor(locale) }));
// like the pages' formatter, it refuses what is not an instant
const when = (iso: string) => `<${new Date(iso).toISOString()}>`;

/** The string literals a pattern's first group captures, over the given source files. */
const literals = (files: string[], pattern: RegExp) =>
  new Set(files.flatMap((file) => [...read(file).matchAll(pattern)].map((m) => m[1]!)));

// receive.ts and process.ts build notes ({ code, args }); "process again" (inbox.ts) sets the column
// (its `code:` literals are the action's result codes, not notes)
const noteBuilders = ["lib/webhooks/receive.ts", "lib/webhooks/process.ts"];
const webhookWriters = [...noteBuilders, "lib/webhooks/inbox.ts"];
const writtenOutcomeCodes = new Set([
  ...literals(noteBuilders, /\bcode: "(\w+)"/g),
  ...literals(webhookWriters, /\boutcomeCode: "(\w+)"/g),
  // what a snapshot did, as the `then` of a read-back or a note of its own
  ...literals(["lib/webhooks/process.ts"], /^\s+return "(\w+)";$/gm),
]);
// written values only (an object literal after "(" or "reason: "), not the type that lists them
const writtenReasons = literals(
  ["lib/operations/mirror/apply-snapshot.ts"],
  /(?:\(|reason: )\{ why: "(\w+)"/g,
);
const writtenStopCodes = literals(["lib/reconcile/run.ts"], /\bcode: "(\w+)"/g);
const writtenErrorCodes = literals(["lib/reconcile/run.ts"], /\berrorCode: "(\w+)"/g);

// An example of each code's arguments, as the writers store them.
const EXAMPLES: Record<OutcomeCode, object> = {
  wrongPathSecret: {},
  ipNotAllowed: { ip: "203.0.113.9" },
  wrongBearerToken: {},
  bodyTooLarge: { bytes: 5_000_000, limit: 1_048_576 },
  bodyHasNul: {},
  bodyEmpty: {},
  bodyNotJson: { detail: "Unexpected end of JSON input" },
  bodyNotObject: {},
  bodyUnstorableText: { detail: "data.comment: holds a lone surrogate (\\ud800)" },
  bodyTooDeep: { limit: 32 },
  traceIdTooLong: { length: 6000, limit: 200 },
  envelopeNotSuccess: { status: "Error", codeError: "someCode" },
  envelopeNoOperation: {},
  operationInvalid: { detail: "amount: Invalid input" },
  alreadyMirrored: { traceID: "trace-1" },
  olderThanMirror: { traceID: null },
  wouldChangeFinal: { traceID: "trace-2" },
  readBackFailed: { attempts: 8, error: "connect ECONNREFUSED 127.0.0.1:9" },
  processingFailed: { attempts: 8, error: "invalid input syntax for type json" },
  processingUnfinished: { attempts: 9 },
  unknownToPlatform: { operationId: "11111111-2222-3333-4444-555555555555" },
  readBackStatusDiffers: { said: "success", read: "in_progress" },
  readBackFieldsDiffer: { fields: ["amountInitial", "amount"] },
  readBackDateAhead: { at: "2099-12-31T00:00:00.000Z" },
  readBack: { why: "finalStatus", status: "success", then: "alreadyMirrored", traceID: "trace-3" },
  reprocessRequested: { was: "duplicate" },
};

const outcome = (locale: Locale, code: string | null, args: unknown, detail: string | null = null) =>
  wordOutcome(words(locale), { outcomeCode: code, outcomeArgs: args, outcomeDetail: detail }, when);

const run = (locale: Locale, stored: Partial<StoredRunNote>) =>
  wordRunNote(
    words(locale),
    { stopCode: null, stopArgs: null, stopReason: null, errorCode: null, error: null, ...stored },
    when,
  );

describe("webhook outcome notes", () => {
  it("finds the codes the code writes (the collector itself works)", () => {
    expect([...writtenOutcomeCodes]).toEqual(
      expect.arrayContaining([
        "wrongPathSecret",
        "ipNotAllowed",
        "readBack",
        "readBackFailed",
        "alreadyMirrored",
      ]),
    );
    expect(writtenOutcomeCodes.size).toBeGreaterThan(15);
    expect([...writtenReasons].sort()).toEqual([...UNCONFIRMED_REASONS].sort());
  });

  it("lists every code the receiver, the worker and “process again” write", () => {
    expect([...writtenOutcomeCodes].filter((c) => !(OUTCOME_CODES as readonly string[]).includes(c))).toEqual(
      [],
    );
  });

  it.each(["en", "ru"] as const)("words every code with its arguments in %s", (locale) => {
    const t = words(locale);
    for (const code of OUTCOME_CODES) {
      expect(t.has(`webhooks.notes.${code}`), `${locale}: webhooks.notes.${code}`).toBe(true);
      const note = outcome(locale, code, EXAMPLES[code])!;
      const line = noteLine(note);
      expect(line, code).not.toMatch(/[{}]|webhooks\.notes/);
      expect(note.text, code).not.toBe("");
    }
    for (const why of [...UNCONFIRMED_REASONS, "unconfirmed"]) {
      expect(t.has(`webhooks.notes.why.${why}`), `${locale}: why.${why}`).toBe(true);
    }
  });

  it("words a code differently in Russian and English, with the same data", () => {
    for (const code of OUTCOME_CODES) {
      const en = outcome("en", code, EXAMPLES[code])!;
      const ru = outcome("ru", code, EXAMPLES[code])!;
      expect(ru.text, code).not.toBe(en.text);
      expect(ru.data, code).toBe(en.data);
    }
  });

  it.each([
    [
      "readBack",
      EXAMPLES.readBack,
      "Confirmed by a read-back: final status “success”. Already mirrored. Webhook traceID: trace-3.",
      "Подтверждён контрольным запросом: окончательный статус «успешно». Уже есть в зеркале. traceID вебхука: trace-3.",
    ],
    [
      "readBackFailed",
      EXAMPLES.readBackFailed,
      "The read-back failed 8 times: connect ECONNREFUSED 127.0.0.1:9",
      "Контрольный запрос не удался 8 раз: connect ECONNREFUSED 127.0.0.1:9",
    ],
    [
      "ipNotAllowed",
      { ip: null, cut: { kept: 4096, total: 9000, totalKind: "atLeast" } },
      "Source IP unknown is not in the allowlist. Only its first 4,096 bytes kept (of at least 9,000).",
      "IP отправителя неизвестен не входит в список разрешённых. Сохранены только первые 4\u00a0096 байт (из не менее 9\u00a0000).",
    ],
    [
      "reprocessRequested",
      EXAMPLES.reprocessRequested,
      "Processing again on request (was “duplicate”).",
      "Повторная обработка по запросу (был «дубликат»).",
    ],
    [
      "readBackDateAhead",
      EXAMPLES.readBackDateAhead,
      "The webhook's dateUpdated <2099-12-31T00:00:00.000Z> is later than its arrival; the read-back was applied.",
      "dateUpdated вебхука <2099-12-31T00:00:00.000Z> позже его получения; применён результат контрольного запроса.",
    ],
  ])("words %s in both languages", (code, args, en, ru) => {
    expect(noteLine(outcome("en", code, args)!)).toBe(en);
    expect(noteLine(outcome("ru", code, args)!)).toBe(ru);
  });

  it("keeps the technical detail apart, as data", () => {
    expect(outcome("ru", "bodyNotJson", EXAMPLES.bodyNotJson)).toEqual({
      text: "Тело не является JSON:",
      data: "Unexpected end of JSON input",
    });
    const cut = { kept: 4096, total: 5000, totalKind: "exact" };
    expect(outcome("en", "bodyNotJson", { detail: "Unexpected token", cut })).toEqual({
      text: "Body is not JSON:",
      data: "Unexpected token",
      after: "Only its first 4,096 bytes kept (of 5,000).",
    });
    expect(outcome("en", "readBackFieldsDiffer", EXAMPLES.readBackFieldsDiffer)?.data).toBe(
      "amountInitial, amount",
    );
  });

  it("shows an old row's sentence that matched no code as stored, in every language", () => {
    for (const locale of ["en", "ru"] as const) {
      expect(outcome(locale, null, null, "something the old worker said")).toEqual({
        text: "",
        data: "something the old worker said",
      });
    }
    expect(outcome("ru", null, null, null)).toBeNull();
  });

  it("shows a code this release does not know, and its arguments, as data (nothing lost)", () => {
    expect(outcome("ru", "fromANewerRelease", { x: 1 })).toEqual({
      text: "",
      data: 'fromANewerRelease {"x":1}',
    });
  });

  it("survives arguments of the wrong shape without throwing", () => {
    for (const code of OUTCOME_CODES) {
      expect(() => outcome("ru", code, "not an object")).not.toThrow();
      expect(() => outcome("en", code, null)).not.toThrow();
    }
  });
});

describe("reconciliation run notes", () => {
  it("lists every stop and error code reconciliation writes", () => {
    expect([...writtenStopCodes, ...FORMER_STOP_CODES].sort()).toEqual([...STOP_CODES].sort());
    expect([...writtenErrorCodes].sort()).toEqual([...ERROR_CODES].sort());
  });

  it.each(["en", "ru"] as const)("words every code in %s", (locale) => {
    const t = words(locale);
    for (const code of [...STOP_CODES, ...ERROR_CODES]) {
      expect(t.has(`reconciliation.runs.notes.${code}`), `${locale}: ${code}`).toBe(true);
    }
  });

  it("words why a run stopped or failed in both languages, the caught message as data", () => {
    const passed = { stopCode: "passedLowerBound", stopArgs: { at: "2026-01-01T00:00:00.000Z" } };
    expect(noteLine(run("en", passed)!)).toBe(
      "Stopped past <2026-01-01T00:00:00.000Z>: the last reconciled point and the oldest open operation, with overlap.",
    );
    expect(noteLine(run("ru", passed)!)).toBe(
      "Остановилась после <2026-01-01T00:00:00.000Z>: последняя сверенная точка и самая ранняя незавершённая операция, с перекрытием.",
    );
    const at = "2026-01-01T00:00:00.000Z";
    const watermark = (readById: number) => ({ stopCode: "passedWatermark", stopArgs: { at, readById } });
    expect(noteLine(run("en", watermark(0))!)).toBe(
      `Stopped past <${at}>: the last reconciled point, with overlap. No older operation was open.`,
    );
    expect(noteLine(run("en", watermark(3))!)).toBe(
      `Stopped past <${at}>: the last reconciled point, with overlap. 3 older open operations read by id.`,
    );
    expect([1, 3, 5, 21].map((n) => noteLine(run("ru", watermark(n))!).split("перекрытием. ")[1])).toEqual([
      "1 более ранняя незавершённая операция прочитана по id.",
      "3 более ранние незавершённые операции прочитаны по id.",
      "5 более ранних незавершённых операций прочитаны по id.",
      "21 более ранняя незавершённая операция прочитана по id.",
    ]);
    expect(noteLine(run("en", { stopCode: "endOfList", stopArgs: {} })!)).toBe(
      "Reached the end of the list.",
    );
    expect(noteLine(run("ru", { stopCode: "endOfList", stopArgs: {} })!)).toBe("Дошла до конца списка.");
    expect(run("ru", { errorCode: "interrupted" })?.text).toMatch(/^Прервана/);
    expect(run("ru", { errorCode: "failed", error: "connect ECONNREFUSED" })).toEqual({
      text: "Ошибка:",
      data: "connect ECONNREFUSED",
    });
  });

  it("shows an old run's reason or error that matched no code as stored", () => {
    expect(run("ru", { stopReason: "some old reason" })).toEqual({ text: "", data: "some old reason" });
    expect(run("ru", { error: "some old error" })).toEqual({ text: "", data: "some old error" });
    expect(run("ru", {})).toBeNull();
  });
});

describe("a note on the page", () => {
  it("sets the quoted data apart: not translated, isolated from the words around it (bidi controls)", () => {
    const note = outcome("ru", "bodyNotJson", { detail: "\u202Eevil\u202C <b>x</b>" })!;
    const html = renderToStaticMarkup(createElement(NoteText, { note }));
    expect(html).toBe(
      'Тело не является JSON: <bdi translate="no" class="font-mono" data-raw="">\u202Eevil\u202C &lt;b&gt;x&lt;/b&gt;</bdi>',
    );
  });

  it('words without data carry no translate="no"', () => {
    const html = renderToStaticMarkup(createElement(NoteText, { note: outcome("ru", "bodyEmpty", {}) }));
    expect(html).toBe("Тело пустое.");
  });
});
