// COPY's text format (lib/db-copy-text.ts): what each value becomes on its line.
import { describe, expect, it } from "vitest";
import { copyText } from "@/lib/db-copy-text";

type Row = { a: unknown; b: unknown };

describe("copyText", () => {
  it("writes one line a row, fields in the given order, separated by tabs; null and undefined as \\N", () => {
    const rows: Row[] = [
      { a: "x", b: null },
      { a: undefined, b: "y" },
    ];
    expect(copyText(rows, ["b", "a"])).toBe("\\N\tx\ny\t\\N\n");
    expect(copyText([], ["a"])).toBe("");
  });

  it("escapes backslash, newline, carriage return and tab, and nothing else", () => {
    const text = copyText<Row>(
      [{ a: "a\\b\nc\rd\te", b: '«кириллица» \u202Eevil\u202C 😀 "q" \' ,' }],
      ["a", "b"],
    );
    expect(text).toBe('a\\\\b\\nc\\rd\\te\t«кириллица» \u202Eevil\u202C 😀 "q" \' ,\n');
    // Every line break and tab left in the text is a row or field separator.
    expect(text.split("\n")).toHaveLength(2);
    expect(text.split("\t")).toHaveLength(2);
  });

  it("writes a JSON column's value as JSON text: a string keeps its quotes, escapes are doubled", () => {
    const rows: Row[] = [
      { a: "plain", b: "qr\\text" },
      { a: "obj", b: { phone: "+7\t999", codes: ["1", "2.5"], nested: null } },
    ];
    expect(copyText(rows, ["a", "b"], new Set(["b"]))).toBe(
      'plain\t"qr\\\\\\\\text"\n' + 'obj\t{"phone":"+7\\\\t999","codes":["1","2.5"],"nested":null}\n',
    );
  });

  it("writes what PostgreSQL cannot store as U+FFFD: a NUL in text, a NUL or lone-surrogate escape in JSON", () => {
    expect(copyText<Row>([{ a: "ok", b: "bad\u0000byte" }], ["a", "b"])).toBe("ok\tbad\uFFFDbyte\n");
    expect(copyText<Row>([{ a: "ok", b: { s: "x\u0000\ud800" } }], ["a", "b"], new Set(["b"]))).toBe(
      'ok\t{"s":"x\\\\ufffd\\\\ufffd"}\n',
    );
  });
});
