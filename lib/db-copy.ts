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
  // Cast where used (`ARRAY[]::int[]`): an empty array has no type of its own.
  if (Array.isArray(value)) return `ARRAY[${value.map(literal).join(",")}]`;
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
    for await (const chunk of stream) yield* reader.push(chunk as Buffer);
    reader.finish();
    broken = false;
  } finally {
    // A COPY left half-read (the download was cancelled) leaves the connection unusable: discard it.
    connection.release(broken);
  }
}

const EMPTY = Buffer.alloc(0);

/**
 * Takes the COPY stream chunk by chunk and returns the field bytes each chunk completes. A chunk is
 * handed over: its rows' bytes are moved over the row headers in place and returned as a view of it,
 * so reading allocates nothing but the few bytes of a row that falls across two chunks.
 */
export class BinaryCopyReader {
  /** The start of a row (or of the header) that the last chunk cut off. */
  private cut: Buffer = EMPTY;
  private headerRead = false;
  private ended = false;

  push(input: Buffer): Buffer[] {
    const out: Buffer[] = [];
    let chunk = input;
    let at = 0;
    if (!this.headerRead) {
      chunk = Buffer.concat([this.cut, input]);
      this.cut = EMPTY;
      at = this.readHeader(chunk);
      if (!this.headerRead) {
        this.cut = chunk;
        return out;
      }
    } else if (this.cut.byteLength > 0) {
      at = this.finishCutRow(chunk, out);
    }
    const start = at;
    let written = at;
    while (!this.ended && chunk.byteLength - at >= 2) {
      const count = chunk.readInt16BE(at);
      if (count === -1) {
        this.ended = true;
        at += 2;
        break;
      }
      checkColumnCount(count);
      if (chunk.byteLength - at < 6) break;
      const length = Math.max(chunk.readInt32BE(at + 2), 0); // -1: NULL, no bytes
      if (chunk.byteLength - at < 6 + length) break;
      written += chunk.copy(chunk, written, at + 6, at + 6 + length);
      at += 6 + length;
    }
    if (written > start) out.push(chunk.subarray(start, written));
    if (at < chunk.byteLength) this.cut = Buffer.from(chunk.subarray(at));
    return out;
  }

  /** Completes the cut row with the bytes it still needs from this chunk; returns where they end. */
  private finishCutRow(chunk: Buffer, out: Buffer[]): number {
    let at = 0;
    for (let n = this.cutNeeds(); n > 0 && at < chunk.byteLength; n = this.cutNeeds()) {
      const take = Math.min(n, chunk.byteLength - at);
      this.cut = Buffer.concat([this.cut, chunk.subarray(at, at + take)]);
      at += take;
    }
    if (this.cutNeeds() > 0) return at;
    if (this.cut.readInt16BE(0) === -1) this.ended = true;
    else out.push(this.cut.subarray(6));
    this.cut = EMPTY;
    return at;
  }

  /** How many more bytes the cut row needs: its field count, then its length, then its bytes. */
  private cutNeeds(): number {
    if (this.cut.byteLength < 2) return 2 - this.cut.byteLength;
    const count = this.cut.readInt16BE(0);
    if (count === -1) return 0;
    checkColumnCount(count);
    if (this.cut.byteLength < 6) return 6 - this.cut.byteLength;
    return 6 + Math.max(this.cut.readInt32BE(2), 0) - this.cut.byteLength;
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
    if (!this.ended || this.cut.byteLength > 0) throw new Error("the COPY stream ended early");
  }
}

function checkColumnCount(count: number): void {
  if (count !== 1) throw new Error(`expected one column per COPY row, got ${count}`);
}
