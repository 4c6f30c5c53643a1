// The PDF export sends each page as the next one begins instead of holding them all until the end: a
// period of a year (~1.2 million postings at the bench's 100,000 a month) kept ~25 KB a posting in memory
// with pdfkit's bufferPages and sent nothing before the last line. Synthetic lines, no database.
import { PassThrough, Writable } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";
import PDFDocument from "pdfkit";
import { describe, expect, it, vi } from "vitest";
import type { StatementPosting } from "@/lib/ledger/postings";
import { DownloadClosedError } from "@/lib/statements/closed";
import { writeStatementPdf } from "@/lib/statements/pdf";
import { cachingFonts } from "@/lib/statements/pdf-pages";
import { pdfText } from "../../support/statement-files";
import { syntheticPosting, syntheticStatement } from "../../support/synthetic-statement";

const PER_CHUNK = 500;

/** Lines in chunks, each after a turn of the event loop as a read from the database takes. */
async function* chunks(count: number, before?: (chunk: number) => void): AsyncIterable<StatementPosting[]> {
  for (let c = 0; c < count; c++) {
    await new Promise(setImmediate);
    before?.(c);
    yield Array.from({ length: PER_CHUNK }, (_, k) => syntheticPosting(c * PER_CHUNK + k));
  }
}

describe("PDF export of many lines", () => {
  it("sends its pages while the lines are still being read, each numbered as it begins", async () => {
    const CHUNKS = 8;
    const parts: Buffer[] = [];
    let received = 0;
    let beforeLastChunk = -1;
    const client = new Writable({
      write(chunk: Buffer, _encoding, done) {
        parts.push(chunk);
        received += chunk.length;
        done();
      },
    });
    const doc = syntheticStatement(() =>
      chunks(CHUNKS, (c) => {
        if (c === CHUNKS - 1) beforeLastChunk = received;
      }),
    );
    const end = vi.spyOn(PDFDocument.prototype, "end");
    await writeStatementPdf(doc, client);
    const pdf = end.mock.contexts[0] as PDFKit.PDFDocument;
    end.mockRestore();
    expect(beforeLastChunk, `${beforeLastChunk} of ${received} bytes`).toBeGreaterThan(received / 2);

    const pages = (await pdfText(Buffer.concat(parts))).split("\n").filter(Boolean);
    expect(pages.length).toBeGreaterThan(CHUNKS);
    expect(pages.map((page) => /\bPage (\d+)\b/.exec(page)?.[1])).toEqual(pages.map((_, i) => String(i + 1)));
    expect(pages.every((page) => page.includes("Account statement · Merchant"))).toBe(true);
    expect(pages.at(-1)).toContain(`m-${CHUNKS * PER_CHUNK - 1}`);

    // pdfkit keeps the layout of every word written unless emptied: here those of the last page only.
    const fonts = cachingFonts(pdf);
    expect(fonts.length).toBeGreaterThan(0);
    const words = fonts.reduce((sum, font) => sum + Object.keys(font.layoutCache).length, 0);
    expect(words).toBeGreaterThan(0);
    expect(words).toBeLessThan(2_000);
  }, 120_000);

  it("waits for a client that reads nothing, goes on as it reads, and stops when it goes away", async () => {
    const CHUNKS = 60; // ~3 MB of pages, three times what is written ahead of the client
    let pulled = 0;
    const client = new PassThrough(); // not read until the rendering stops
    const rendering = writeStatementPdf(
      syntheticStatement(() => chunks(CHUNKS, (c) => (pulled = c + 1))),
      client,
    );
    rendering.catch(() => undefined);
    // Until it stops asking for lines (it renders a chunk in well under a second) or has read them all.
    for (let seen = -1; seen !== pulled && pulled < CHUNKS;) {
      seen = pulled;
      await sleep(1_000);
    }
    const waiting = pulled;
    expect(waiting).toBeLessThan(CHUNKS);

    client.resume();
    while (pulled === waiting) await sleep(50);
    client.destroy();
    await expect(rendering).rejects.toBeInstanceOf(DownloadClosedError);
    expect(pulled).toBeLessThan(CHUNKS);
  }, 120_000);
});
