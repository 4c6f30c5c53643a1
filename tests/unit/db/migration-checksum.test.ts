// The migration runner compares an applied migration's file with its recorded checksum as Prisma does
// (prisma-engines' script_matches_checksum and its tests): LF and CRLF are the same file, a real edit is
// not, and a checksum an old schema engine wrote without zero-padding still matches.
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { scriptMatchesChecksum } from "../../../scripts/lib/migrations";

const checksum = (text: string) => createHash("sha256").update(text).digest("hex");

describe("scriptMatchesChecksum", () => {
  it("renders Prisma's checksum: sha256 hex, zero-padded", () => {
    expect(checksum("hello")).toBe("2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824");
  });

  it.each([
    ["ab\ncd\nef\ngh\rab", "ab\r\ncd\r\nef\r\ngh\rab"],
    ["ab\ncd\nef\ngh\rab\n", "ab\r\ncd\r\nef\r\ngh\rab\r\n"],
  ])("takes LF and CRLF as the same script: %j", (...scripts) => {
    for (const script of scripts) {
      for (const other of scripts) expect(scriptMatchesChecksum(script, checksum(other))).toBe(true);
    }
  });

  it.each([
    ["abc", "abcd"],
    ["abc\n", "abc"],
    ["abc\r\n-- edited\r\n", "abc\n"],
  ])("refuses a changed script: %j against the checksum of %j", (script, applied) => {
    expect(scriptMatchesChecksum(script, checksum(applied))).toBe(false);
  });

  it("matches a checksum written without zero-padding (prisma-engines#1887)", () => {
    const digest = createHash("sha256").update("SELECT 1;\n").digest();
    const unpadded = [...digest].map((byte) => byte.toString(16)).join("");
    expect(unpadded).not.toHaveLength(64);
    expect(scriptMatchesChecksum("SELECT 1;\n", unpadded)).toBe(true);
    expect(scriptMatchesChecksum("SELECT 2;\n", unpadded)).toBe(false);
  });
});
