// The operations list's keyset cursor: what it looks like, that it round-trips, and every text that is
// not one of ours read as no cursor.
import { describe, expect, test } from "vitest";
import { decodeCursor, encodeCursor } from "@/lib/operations/list/cursor";

const ID = "00000000-0000-4000-8000-00000000abcd";
const AT = new Date("2026-11-20T10:00:00.000Z");
const b64url = (text: string) => Buffer.from(text).toString("base64url");

describe("operations list cursor", () => {
  test("base64url of '<ISO>|<id>' without padding", () => {
    const cursor = encodeCursor({ dateAdded: AT, id: ID });
    expect(cursor).toBe(b64url(`2026-11-20T10:00:00.000Z|${ID}`));
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(Buffer.from(`2026-11-20T10:00:00.000Z|${ID}`).toString("base64")).toMatch(/==$/);
  });

  test("round-trips", () => {
    expect(decodeCursor(encodeCursor({ dateAdded: AT, id: ID }))).toEqual({ dateAdded: AT, id: ID });
  });

  test("the first and last days of the product's years read back", () => {
    for (const at of ["1000-01-01T00:00:00.000Z", "9998-12-31T23:59:59.999Z"]) {
      expect(decodeCursor(b64url(`${at}|${ID}`))).toEqual({ dateAdded: new Date(at), id: ID });
    }
  });

  test("the unpadded spelling it writes reads back", () => {
    const text = `2026-11-20T10:00:00.000Z|${ID}`;
    expect(decodeCursor(b64url(text))).toEqual({ dateAdded: AT, id: ID });
  });

  test.each([
    ["empty", ""],
    ["padding", `${b64url(`2026-11-20T10:00:00.000Z|${ID}`)}==`],
    ["a character outside base64url", "abc+def/"],
    ["not base64 at all (one char too many)", "abcde"],
    ["no id", b64url("2026-11-20T10:00:00.000Z")],
    ["an empty id", b64url("2026-11-20T10:00:00.000Z|")],
    ["no date", b64url(`|${ID}`)],
    ["a third part", b64url(`2026-11-20T10:00:00.000Z|${ID}|x`)],
    ["an id that is not a lower-case uuid", b64url(`2026-11-20T10:00:00.000Z|${ID.toUpperCase()}`)],
    ["an id with text around it", b64url(`2026-11-20T10:00:00.000Z|x${ID}`)],
    ["a date without milliseconds", b64url(`2026-11-20T10:00:00Z|${ID}`)],
    ["a date with an offset", b64url(`2026-11-20T10:00:00.000+03:00|${ID}`)],
    ["a date with text before it", b64url(`x2026-11-20T10:00:00.000Z|${ID}`)],
    ["a date with text after it", b64url(`2026-11-20T10:00:00.000Zx|${ID}`)],
    ["a date that does not exist", b64url(`2026-13-45T10:00:00.000Z|${ID}`)],
    // PostgreSQL has no year 0: the query itself failed (a 500 instead of the 400 of a bad cursor)
    ["year 0000", b64url(`0000-01-01T00:00:00.000Z|${ID}`)],
    ["a year before FIRST_DAY", b64url(`0999-12-31T23:59:59.999Z|${ID}`)],
    ["a year after LAST_DAY", b64url(`9999-01-01T00:00:00.000Z|${ID}`)],
  ])("%s: no cursor", (_what, value) => {
    expect(decodeCursor(value)).toBeNull();
  });
});
