// Finding 14 (text): an approver saw `Ivan ‮gnp.exe` (U+202E turns the rest around). Every free-text
// field sent to the platform or shown to another person refuses control, format (bidi, zero-width),
// separator and surrogate characters, naming the field and the character; real names, punctuation and
// emoji still pass.
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, test, vi } from "vitest";
import type { z } from "zod";
import { getDb } from "@/lib/db";
import { fullLinkSchema, payInSchema, prepareLinkSchema } from "@/lib/payins/schemas";
import { cancelSchema, decisionSchema, payoutFormSchema } from "@/lib/payouts/schemas";
import { withCheckDigit } from "../../support/cards";
import { createUserSchema } from "@/lib/users/schemas";
import { wordedErrors } from "../../support/i18n";
import { createStaff } from "../../support/mirror";

const session = vi.hoisted(() => ({ current: null as null | { userId: string; sessionVersion: number } }));
vi.mock("@/lib/auth/config", () => ({ auth: async () => session.current }));
vi.mock("next/headers", () => ({ headers: async () => new Headers() }));

/** Characters that must never reach the platform or another person's screen, one row each. */
const FORBIDDEN: Array<[string, string]> = [
  ["RIGHT-TO-LEFT OVERRIDE", "\u202E"],
  ["LEFT-TO-RIGHT OVERRIDE", "\u202D"],
  ["LEFT-TO-RIGHT EMBEDDING", "\u202A"],
  ["POP DIRECTIONAL FORMATTING", "\u202C"],
  ["LEFT-TO-RIGHT ISOLATE", "\u2066"],
  ["FIRST STRONG ISOLATE", "\u2068"],
  ["POP DIRECTIONAL ISOLATE", "\u2069"],
  ["RIGHT-TO-LEFT MARK", "\u200F"],
  ["ARABIC LETTER MARK", "\u061C"],
  ["ZERO WIDTH SPACE", "\u200B"],
  ["ZERO WIDTH NON-JOINER", "\u200C"],
  ["ZERO WIDTH JOINER between letters", "\u200D"],
  ["WORD JOINER", "\u2060"],
  ["BYTE ORDER MARK inside the text", "\uFEFF"],
  ["SOFT HYPHEN", "\u00AD"],
  ["TAG LATIN SMALL LETTER A", "\u{E0061}"],
  ["NEXT LINE (C1, U+0085)", "\u0085"],
  ["C1 control U+0080", "\u0080"],
  ["C1 control U+009F", "\u009F"],
  ["NUL", "\u0000"],
  ["ESCAPE", "\u001B"],
  ["TAB", "\t"],
  ["CARRIAGE RETURN alone", "\r"],
  ["DELETE", "\u007F"],
  ["LINE SEPARATOR", "\u2028"],
  ["PARAGRAPH SEPARATOR", "\u2029"],
  ["lone high surrogate", "\uD800"],
  ["lone low surrogate", "\uDC00"],
  ["HANGUL FILLER (renders as nothing)", "\u3164"],
  ["HANGUL CHOSEONG FILLER", "\u115F"],
  ["HALFWIDTH HANGUL FILLER", "\uFFA0"],
  ["BRAILLE PATTERN BLANK (renders as nothing)", "\u2800"],
  ["unassigned default-ignorable U+E0080", "\u{E0080}"],
  ["noncharacter U+FFFE", "\uFFFE"],
];

const ACCEPTED_TEXT = [
  "Иванов-Петров О'Нил",
  "Ivan Petrov",
  "Ёлкин Пётр Семёнович",
  "José Müller-Łukasiewicz",
  "O’Brien & Sons, Ltd. (No. 5)",
  "ООО «Ромашка» — счёт №17",
  "Payment 1500.50 RUB; ref #A-17/3 [ok]? 100% ½ ©",
  "Спасибо 👍",
  "family 👨‍👩‍👧 and 👩🏽‍💻",
  "🇷🇺 1️⃣ 👍🏿",
  "Йошкар-Олинская Мария-Анна д’Артаньян",
  "Пе\u0308тр И\u0306ванов (ё and й typed as letter + mark)",
  "Mary-Jane O'Brien",
];

/** Values with nothing for their combining marks to sit on: refused, named by the first mark. */
const MARKS_ONLY: Array<[string, string]> = [
  ["a lone COMBINING ACUTE ACCENT", "\u0301"],
  ["combining marks between spaces", " \u0301 \u0308 "],
  ["VARIATION SELECTOR-16 alone", "\uFE0F"],
];

const codeOf = (char: string) => `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;
const messageFor = (label: string, char: string) =>
  `The ${label} contains invisible or control characters (${codeOf(char)}).`;

const card = (prefix = "220070001234567") => withCheckDigit(prefix);

const payout = {
  paymentMethod: "toCard",
  bankName: "Сбербанк",
  recipientNumber: card(),
  recipientName: "Ivan Petrov",
  amount: "1500.50",
  clientID: "client-7731",
  clientIP: "85.143.12.7",
  clientDateCreated: "2023-04-17",
  webhookUrl: "",
};
const payIn = {
  requestKey: randomUUID(),
  amount: "1500.50",
  paymentMethod: "sbp",
  clientID: "client-7731",
  clientIP: "85.143.12.7",
  clientDateCreated: "2023-04-17",
};
const payoutId = randomUUID();

/** The messages of one field in words (as the server action words them), or [] when the schema accepts it. */
function errorsOn(schema: z.ZodType, input: unknown, field: string): string[] {
  const r = schema.safeParse(input);
  return r.success ? [] : (wordedErrors(r.error)[field] ?? []);
}

type Field = {
  name: string;
  label: string;
  multiline: boolean;
  /** The field's messages for a value (a schema parse, or the server action's fieldErrors). */
  check: (value: string) => Promise<string[]> | string[];
  /** A good value of this field with the character inside. */
  around: (char: string) => string;
};

const asText = (char: string) => `Ivan ${char}gnp.exe`;
const asUrl = (char: string) => `https://hooks.example.com/paydesk${char}x`;

const schemaFields: Field[] = [
  {
    name: "pay-out recipientName",
    label: "recipient name",
    multiline: false,
    check: (v) => errorsOn(payoutFormSchema, { ...payout, recipientName: v }, "recipientName"),
    around: asText,
  },
  {
    name: "pay-out bankName",
    label: "bank",
    multiline: false,
    check: (v) => errorsOn(payoutFormSchema, { ...payout, bankName: v }, "bankName"),
    around: (c) => `Сбер${c}банк`,
  },
  {
    name: "pay-out clientID",
    label: "client id",
    multiline: false,
    check: (v) => errorsOn(payoutFormSchema, { ...payout, clientID: v }, "clientID"),
    around: (c) => `client-${c}7731`,
  },
  {
    name: "pay-out webhookUrl",
    label: "webhook URL",
    multiline: false,
    check: (v) => errorsOn(payoutFormSchema, { ...payout, webhookUrl: v }, "webhookUrl"),
    around: asUrl,
  },
  {
    name: "pay-out overrideReason",
    label: "override reason",
    multiline: true,
    check: (v) => errorsOn(payoutFormSchema, { ...payout, overrideReason: v }, "overrideReason"),
    around: asText,
  },
  {
    name: "approval/rejection comment",
    label: "comment",
    multiline: true,
    check: (v) => errorsOn(decisionSchema, { id: payoutId, comment: v }, "comment"),
    around: asText,
  },
  {
    name: "cancel comment",
    label: "comment",
    multiline: true,
    check: (v) => errorsOn(cancelSchema, { id: payoutId, comment: v }, "comment"),
    around: asText,
  },
  {
    name: "pay-in clientID",
    label: "client id",
    multiline: false,
    check: (v) => errorsOn(payInSchema, { ...payIn, clientID: v }, "clientID"),
    around: (c) => `client-${c}7731`,
  },
  {
    name: "payment-link clientID",
    label: "client id",
    multiline: false,
    check: (v) =>
      errorsOn(prepareLinkSchema, { ...payIn, paymentMethod: undefined, clientID: v }, "clientID"),
    around: (c) => `client-${c}7731`,
  },
  {
    name: "payment-link redirectSuccessURL",
    label: "success redirect URL",
    multiline: false,
    check: (v) => errorsOn(fullLinkSchema, { ...payIn, redirectSuccessURL: v }, "redirectSuccessURL"),
    around: asUrl,
  },
  {
    name: "payment-link redirectFailURL",
    label: "failure redirect URL",
    multiline: false,
    check: (v) => errorsOn(fullLinkSchema, { ...payIn, redirectFailURL: v }, "redirectFailURL"),
    around: asUrl,
  },
  {
    name: "user name (user admin)",
    label: "name",
    multiline: false,
    check: (v) =>
      errorsOn(
        createUserSchema,
        { email: "new@test.local", role: "finance", name: v, password: "a long password 1" },
        "name",
      ),
    around: asText,
  },
];

// Fields whose schema lives in a server action: checked through the action as a signed-in user.
let runId: string;
const adminUser = { id: "" };
beforeAll(async () => {
  adminUser.id = (await createStaff("admin")).id;
  session.current = { userId: adminUser.id, sessionVersion: 0 };
  runId = (
    await getDb().reconciliationRun.create({
      data: { kind: "full", status: "completed", finishedAt: new Date() },
    })
  ).id;
});

const fieldErrorsOf = (result: unknown, field: string): string[] =>
  (result as { fieldErrors?: Record<string, string[] | undefined> }).fieldErrors?.[field] ?? [];

const actionFields: Field[] = [
  {
    name: "drift resolution note",
    label: "note",
    multiline: false,
    check: async (v) => {
      const { decideDriftAction } = await import("@/lib/actions/reconcile");
      const id = (
        await getDb().driftItem.create({
          data: { runId, operationId: randomUUID(), kind: "statusMismatch", platformValue: {} },
        })
      ).id;
      const result = await decideDriftAction({ id, decision: "resolve", note: v });
      const item = await getDb().driftItem.findUniqueOrThrow({ where: { id } });
      const errors = fieldErrorsOf(result, "note");
      // refused means unchanged
      expect(item.state === "open").toBe(errors.length > 0);
      return errors;
    },
    around: asText,
  },
  {
    name: "saved view name",
    label: "view name",
    multiline: false,
    check: async (v) => {
      const { saveViewAction } = await import("@/lib/actions/operations");
      const views = () => getDb().savedView.count({ where: { userId: adminUser.id } });
      const before = await views();
      const result = await saveViewAction({ name: v, query: "status=failed" });
      const errors = fieldErrorsOf(result, "name");
      expect(await views()).toBe(before + (errors.length > 0 ? 0 : 1));
      return errors;
    },
    around: asText,
  },
  {
    name: "user name (users page)",
    label: "name",
    multiline: false,
    check: async (v) => {
      const { createUserAction } = await import("@/lib/actions/users");
      const email = `u-${randomUUID()}@test.local`;
      const result = await createUserAction({ email, name: v, role: "support", password: "" });
      const created = await getDb().user.count({ where: { email } });
      const errors = fieldErrorsOf(result, "name");
      expect(created).toBe(errors.length > 0 ? 0 : 1);
      return errors;
    },
    around: asText,
  },
];

const fields = [...schemaFields, ...actionFields];
const singleLine = fields.filter((f) => !f.multiline);
const multiLine = fields.filter((f) => f.multiline);

describe.each(fields)("$name", (field) => {
  test.each(FORBIDDEN)("refuses %s, naming the field and the character", async (_name, char) => {
    expect(await field.check(field.around(char))).toEqual([messageFor(field.label, char)]);
  });

  test.each(ACCEPTED_TEXT)("accepts %s", async (text) => {
    const value = field.label.endsWith("URL")
      ? `https://hooks.example.com/${encodeURIComponent(text)}`
      : field.name.includes("clientID")
        ? `client ${text}`
        : field.name.includes("bankName")
          ? "Сбербанк"
          : text;
    expect(await field.check(value)).toEqual([]);
  });
});

describe.each(fields)("$name: combining marks only", (field) => {
  test.each(MARKS_ONLY)("refuses %s, naming the first mark", async (_name, value) => {
    const mark = Array.from(value).find((c) => /\p{M}/u.test(c))!;
    // the note's minimum length (checked beside it) may speak too
    expect(await field.check(value)).toContain(messageFor(field.label, mark));
  });
});

describe("line breaks", () => {
  test.each(singleLine)("$name refuses a line feed", async (field) => {
    expect(await field.check(field.around("\n"))).toEqual([messageFor(field.label, "\n")]);
  });

  test.each(multiLine)("$name (multi-line) accepts \\n and \\r\\n but still refuses a tab", async (field) => {
    expect(await field.check("First line\nsecond line")).toEqual([]);
    expect(await field.check("First line\r\nsecond line")).toEqual([]);
    expect(await field.check("First line\n\tindented")).toEqual([messageFor(field.label, "\t")]);
  });
});

test("the U+202E name of the finding is refused and nothing normalises it away", () => {
  const r = payoutFormSchema.safeParse({ ...payout, recipientName: "Ivan \u202Egnp.exe" });
  expect(r.success).toBe(false);
  expect(
    errorsOn(payoutFormSchema, { ...payout, recipientName: "Ivan \u202Egnp.exe" }, "recipientName"),
  ).toEqual(["The recipient name contains invisible or control characters (U+202E)."]);
});
