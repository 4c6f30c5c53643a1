import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { BinaryCopyReader, copyColumn } from "@/lib/db-copy";
import { Prisma } from "@/lib/generated/prisma/client";

async function collect(parts: AsyncGenerator<Uint8Array>): Promise<string> {
  const chunks: Uint8Array[] = [];
  for await (const part of parts) chunks.push(part);
  return Buffer.concat(chunks).toString("utf8");
}

/** A binary COPY stream of one text column, as PostgreSQL writes it. */
function copyStream(values: Array<string | null>): Buffer {
  const parts = [Buffer.from("PGCOPY\n\xff\r\n\0", "latin1"), Buffer.alloc(8)];
  for (const value of values) {
    const head = Buffer.alloc(6);
    head.writeInt16BE(1, 0);
    head.writeInt32BE(value === null ? -1 : Buffer.byteLength(value), 2);
    parts.push(head, Buffer.from(value ?? ""));
  }
  parts.push(Buffer.from([0xff, 0xff]));
  return Buffer.concat(parts);
}

describe("binary COPY reader", () => {
  const values = ["a,b\r\n", null, "", "кириллица\r\n", "x".repeat(70_000)];
  const stream = copyStream(values);
  const expected = values.map((v) => v ?? "").join("");

  it("gives the same bytes however the stream is cut into chunks", () => {
    for (const size of [1, 2, 3, 5, 7, 19, 1000, 65_536, stream.length]) {
      const reader = new BinaryCopyReader();
      const out: Buffer[] = [];
      // push() rewrites the chunk it is given: each gets a copy.
      for (let at = 0; at < stream.length; at += size) {
        out.push(...reader.push(Buffer.from(stream.subarray(at, at + size))));
      }
      reader.finish();
      expect(Buffer.concat(out).toString("utf8"), `chunks of ${size}`).toBe(expected);
    }
  });

  it("refuses a stream that ends early or is not binary COPY", () => {
    const reader = new BinaryCopyReader();
    reader.push(Buffer.from(stream.subarray(0, stream.length - 10)));
    expect(() => reader.finish()).toThrow("ended early");
    expect(() => new BinaryCopyReader().push(Buffer.from("id,name\r\n".repeat(3)))).toThrow(
      "not a binary COPY stream",
    );
  });
});

describe("copyColumn", () => {
  it("writes values into the query as literals that cannot break out of it", async () => {
    const hostile = "it's \\'; DROP TABLE \"Operation\"; --";
    const text = await collect(
      copyColumn(
        Prisma.sql`SELECT ${hostile}::text || '|' || ${42}::text || '|' || (${null}::text IS NULL)::text`,
      ),
    );
    expect(text).toBe(`${hostile}|42|true`);
    // the table the text names is still there
    await expect(getDb().operation.count()).resolves.toEqual(expect.any(Number));
  });

  it("streams many rows in order, each chunk ending where a row ends", async () => {
    let rows = "";
    for await (const chunk of copyColumn(
      Prisma.sql`SELECT n::text || E'\r\n' FROM generate_series(1, 50000) AS n ORDER BY n`,
    )) {
      expect(chunk.at(-1)).toBe(10);
      rows += Buffer.from(chunk).toString("utf8");
    }
    const lines = rows.split("\r\n").filter(Boolean);
    expect(lines).toHaveLength(50_000);
    expect(lines.at(-1)).toBe("50000");
  });

  it("gives its connection back when the reader stops early, and the pool goes on working", async () => {
    for (let i = 0; i < 30; i++) {
      const parts = copyColumn(Prisma.sql`SELECT repeat('x', 1000) FROM generate_series(1, 100000)`);
      await parts.next();
      await parts.return(undefined);
    }
    const [row] = await getDb().$queryRaw<Array<{ ok: number }>>`SELECT 1 AS ok`;
    expect(row?.ok).toBe(1);
    expect(await collect(copyColumn(Prisma.sql`SELECT 'still fine'`))).toBe("still fine");
  });

  it("passes a database error on, naming the problem", async () => {
    await expect(
      collect(copyColumn(Prisma.sql`SELECT now() AT TIME ZONE 'Mars/Olympus_Mons'`)),
    ).rejects.toThrow(/time zone/);
  });
});
