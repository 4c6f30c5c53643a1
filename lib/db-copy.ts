import "server-only";
import pg from "pg";
import { to as copyTo } from "pg-copy-streams";
import type { Prisma } from "@/lib/generated/prisma/client";
import { poolConnection } from "@/lib/db";

// PostgreSQL's binary COPY format: an 11-byte signature, flags (int32) and a header extension
// (int32 length + bytes); then per row a field count (int16, -1 ends the data) and per field its
// length (int32, -1 for NULL) and bytes.
const SIGNATURE = Buffer.from("PGCOPY\n\xff\r\n\0", "latin1");
const HEADER_FIXED = SIGNATURE.length + 8;

/** A query as text with its values written in as literals: COPY takes no bind parameters. */
function inlined(query: Prisma.Sql): string {
  return query.strings.reduce((text, part, i) => {
    if (i === 0) return part;
    return text + literal(query.values[i - 1]) + part;
  }, "");
}

function literal(value: unknown): string {
  if (value === null || value === undefined) return "NULL";
  if (typeof value === "string") return pg.escapeLiteral(value);
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  if (typeof value === "boolean") return value ? "TRUE" : "FALSE";
  if (value instanceof Date) return pg.escapeLiteral(value.toISOString());
  throw new Error(`cannot write ${typeof value} into a COPY query`);
}

/**
 * Streams the single text column of every row of the query, the rows' bytes back to back, straight
 * from PostgreSQL's COPY: no row objects and no strings on the way, so memory stays flat for any
 * number of rows; the socket is paused while the consumer is slow.
 */
export async function* copyColumn(query: Prisma.Sql): AsyncGenerator<Uint8Array> {
  const connection = await poolConnection();
  let broken = true;
  try {
    const stream = connection.query(copyTo(`COPY (${inlined(query)}) TO STDOUT (FORMAT binary)`));
    const reader = new BinaryCopyReader();
    for await (const chunk of stream) {
      const bytes = reader.push(chunk as Buffer);
      if (bytes.byteLength > 0) yield bytes;
    }
    reader.finish();
    broken = false;
  } finally {
    // A COPY left half-read (the download was cancelled) leaves the connection unusable: discard it.
    connection.release(broken);
  }
}

/** Takes the COPY stream chunk by chunk and returns the field bytes each chunk completes. */
export class BinaryCopyReader {
  private pending: Buffer = Buffer.alloc(0);
  private headerRead = false;
  private ended = false;

  push(chunk: Buffer): Buffer {
    // One buffer of our own per chunk, compacted in place: the rows' bytes are moved over the row
    // headers and a view of the start is returned, so a chunk costs one allocation.
    const data = Buffer.concat([this.pending, chunk]);
    let written = 0;
    let at = this.headerRead ? 0 : this.readHeader(data);
    while (this.headerRead && !this.ended && data.byteLength - at >= 2) {
      const count = data.readInt16BE(at);
      if (count === -1) {
        this.ended = true;
        at += 2;
      } else if (count !== 1) {
        throw new Error(`expected one column per COPY row, got ${count}`);
      } else if (data.byteLength - at < 6) {
        break;
      } else {
        const length = Math.max(data.readInt32BE(at + 2), 0); // -1: NULL, no bytes
        if (data.byteLength - at < 6 + length) break;
        written += data.copy(data, written, at + 6, at + 6 + length);
        at += 6 + length;
      }
    }
    this.pending = Buffer.from(data.subarray(at));
    return data.subarray(0, written);
  }

  /** The header's length once it is all there (and checked); 0 while it is not. */
  private readHeader(data: Buffer): number {
    if (data.byteLength < HEADER_FIXED) return 0;
    if (!data.subarray(0, SIGNATURE.length).equals(SIGNATURE)) throw new Error("not a binary COPY stream");
    const length = HEADER_FIXED + data.readInt32BE(SIGNATURE.length + 4);
    if (data.byteLength < length) return 0;
    this.headerRead = true;
    return length;
  }

  finish(): void {
    if (!this.ended || this.pending.byteLength > 0) throw new Error("the COPY stream ended early");
  }
}
