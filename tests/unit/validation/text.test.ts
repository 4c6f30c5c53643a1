import { describe, expect, it } from "vitest";
import { isUsableFilterText, safeText, unsafeTextProblem } from "@/lib/validation/text";

describe("filter text", () => {
  it.each([
    ["NUL", "a\u0000b"],
    ["U+0001", "a\u0001b"],
    ["tab", "a\tb"],
    ["newline", "a\nb"],
    ["DEL", "a\u007Fb"],
    ["NEL (C1)", "a\u0085b"],
    ["U+009F (C1)", "a\u009Fb"],
    ["zero-width space", "a\u200Bb"],
    ["right-to-left mark", "a\u200Fb"],
    ["right-to-left override", "a\u202Eb"],
    ["first strong isolate", "a\u2068b"],
    ["byte order mark", "\uFEFFab"],
    ["soft hyphen", "a\u00ADb"],
    ["line separator", "a\u2028b"],
    ["a lone surrogate", "a\uD800b"],
  ])("refuses %s", (_name, text) => {
    expect(isUsableFilterText(text)).toBe(false);
  });

  it.each([
    ["an email", "finance-1@paydesk.local"],
    ["a merchant id with punctuation", "order_2026-11/20.#42"],
    ["Cyrillic", "Пётр Иванов"],
    ["an emoji (a surrogate pair)", "pay 💳"],
    ["spaces", "+7 999 123 45 67"],
    ["a traceID", "9b2f6c1e-3d4a-4b5c-8d9e-0f1a2b3c4d5e"],
  ])("accepts %s", (_name, text) => {
    expect(isUsableFilterText(text)).toBe(true);
  });
});

describe("text that renders as nothing", () => {
  const problemOf = (value: string, options = {}) => unsafeTextProblem("recipientName", value, options);
  const invisible = (char: string) => ({
    message: "validation.field.recipientName.invisible",
    params: { char },
  });

  it.each([
    ["BRAILLE PATTERN BLANK", "\u2800", "U+2800"],
    ["BRAILLE PATTERN BLANK between words", "Ivan\u2800Petrov", "U+2800"],
    ["HANGUL FILLER", "\u3164", "U+3164"],
    ["HANGUL CHOSEONG FILLER", "\u115F", "U+115F"],
    ["HANGUL JUNGSEONG FILLER", "\u1160", "U+1160"],
    ["HALFWIDTH HANGUL FILLER", "\uFFA0", "U+FFA0"],
    ["an unassigned default-ignorable (U+2065)", "Ivan\u2065", "U+2065"],
    ["an unassigned default-ignorable (U+FFF0)", "Ivan\uFFF0", "U+FFF0"],
    ["an unassigned default-ignorable (U+E0080)", "Ivan\u{E0080}", "U+E0080"],
  ])("refuses %s anywhere", (_name, value, char) => {
    expect(problemOf(value)).toEqual(invisible(char));
    expect(isUsableFilterText(value)).toBe(false);
  });

  it.each([
    ["a lone combining acute", "\u0301", "U+0301"],
    ["combining marks only", "\u0301\u0308\u0306", "U+0301"],
    ["combining marks between spaces", " \u0301 \u0308 ", "U+0301"],
    ["a combining mark after no-break spaces", "\u00a0\u00a0\u0301", "U+0301"],
    ["variation selector-16 alone", "\uFE0F", "U+FE0F"],
    ["an enclosing keycap alone", "\u20E3", "U+20E3"],
    ["combining marks on a new line", "\u0301\n\u0301", "U+0301"],
  ])("refuses %s: nothing for the mark to sit on", (_name, value, char) => {
    expect(problemOf(value, { multiline: true })).toEqual(invisible(char));
  });

  it.each([
    ["Russian with ё and й", "Пётр Йоткин"],
    ["ё and й typed decomposed (е + U+0308, и + U+0306)", "Пе\u0308тр И\u0306откин"],
    ["a double-barrelled name", "Анна-Мария Салтыкова-Щедрина"],
    ["an apostrophe", "О'Нил Д’Артаньян"],
    ["English", "Mary-Jane O'Brien"],
    ["accents", "José Müller-Łukasiewicz"],
    ["a keycap emoji", "1️⃣"],
    ["empty (an unknown name)", ""],
    ["spaces only (trimmed to empty by the field)", "   "],
  ])("accepts %s", (_name, value) => {
    expect(problemOf(value)).toBeNull();
  });

  it("a field refuses a name of marks only with one message", () => {
    const issues: unknown[] = [];
    safeText("recipientName")("\u0301", {
      addIssue: (issue: unknown) => issues.push(issue),
    } as never);
    expect(issues).toEqual([
      {
        code: "custom",
        message: "validation.field.recipientName.invisible",
        params: { char: "U+0301" },
        continue: false,
      },
    ]);
  });
});
