// What Paydesk writes from outside text (an error message, a parser's complaint) must never fail the
// write: U+0000 and lone surrogates, which PostgreSQL refuses, become U+FFFD; a surrogate pair and text
// that only looks like an escape stay as they are.
import { describe, expect, it } from "vitest";
import { storableJson, storableText, storableValue, withVisibleEscapes } from "@/lib/storable-text";

describe("storable text", () => {
  it.each([
    ["plain", "plain"],
    ["a\u0000b", "a\ufffdb"],
    ["x\ud800y", "x\ufffdy"],
    ["\udc00\ud800", "\ufffd\ufffd"],
    ["pair 😀 \ud83d\ude00", "pair 😀 😀"],
    ["text \\u0000 \\ud800", "text \\u0000 \\ud800"],
  ])("%j -> %j", (text, stored) => {
    expect(storableText(text)).toBe(stored);
    expect(JSON.parse(storableJson({ [text]: [text] }))).toEqual({ [stored]: [stored] });
    expect(storableValue({ nested: { [text]: text } })).toEqual({ nested: { [stored]: stored } });
  });

  it("reads backslashes before an escape right", () => {
    // "\\" then NUL; "\\u0000" as text; three backslashes then a lone surrogate
    const value = ["\\\u0000", "\\u0000", "\\\\\\\ud800"];
    expect(JSON.parse(storableJson(value))).toEqual(["\\\ufffd", "\\u0000", "\\\\\\\ufffd"]);
  });

  it("shows the characters as their escapes", () => {
    expect(withVisibleEscapes("a\u0000b\ud800c😀")).toBe("a\\u0000b\\ud800c😀");
  });
});
