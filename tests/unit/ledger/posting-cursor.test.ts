// The statement page's cursor comes from the address bar. A forged one dated year 0000 passed the ISO
// check and failed the query (PostgreSQL has no year 0): the page answered 500. It is refused as any
// bad cursor is, and the page starts from the first line.
import { describe, expect, it } from "vitest";
import { decodeCursor, encodeCursor } from "@/lib/ledger/postings";

const key = "0b7a3c1e-2f4d-4e5a-9b6c-7d8e9f0a1b2c";

describe("the statement's cursor", () => {
  it.each(["1000-01-01T00:00:00.000Z", "2026-03-01T21:30:00.000Z", "9998-12-31T23:59:59.999Z"])(
    "reads back a cursor at %s",
    (at) => {
      const cursor = { at, key, kind: "outside" as const };
      expect(decodeCursor(encodeCursor(cursor))).toEqual(cursor);
    },
  );

  it.each(["0000-01-01T00:00:00.000Z", "0999-12-31T23:59:59.999Z", "9999-01-01T00:00:00.000Z"])(
    "refuses a forged cursor at %s",
    (at) => {
      expect(decodeCursor(encodeCursor({ at, key, kind: "outside" }))).toBeNull();
    },
  );
});
