import { describe, expect, it } from "vitest";
import { isUsableFilterText } from "@/lib/validation/text";

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
