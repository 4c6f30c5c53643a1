// A statement rendered to bytes the way a download streams it, and a PDF's text as a reader extracts it.
import { PassThrough, type Writable } from "node:stream";
import type { Locale } from "@/lib/i18n/locales";
import type { StatementPosting } from "@/lib/ledger/postings";
import type { StatementPeriod } from "@/lib/ledger/statement";
import type { StatementDocument } from "@/lib/statements/document";
import { withLiveStatement } from "@/lib/statements/live";

type Renderer = (doc: StatementDocument, out: Writable) => Promise<void>;

export async function renderStatement(doc: StatementDocument, renderer: Renderer): Promise<Buffer> {
  const out = new PassThrough();
  const parts: Buffer[] = [];
  out.on("data", (b: Buffer) => parts.push(b));
  await renderer(doc, out);
  out.end();
  return Buffer.concat(parts);
}

export async function pdfText(bytes: Buffer): Promise<string> {
  const pdfjs = await import("pdfjs-dist/legacy/build/pdf.mjs");
  const pdf = await pdfjs.getDocument({ data: new Uint8Array(bytes), useSystemFonts: false }).promise;
  let text = "";
  for (let i = 1; i <= pdf.numPages; i++) {
    const content = await (await pdf.getPage(i)).getTextContent();
    text += content.items.map((item) => ("str" in item ? item.str : "")).join(" ") + "\n";
  }
  return text;
}

/** A live statement read whole inside its snapshot (summary and lines together), to render afterwards. */
export async function readLiveStatement(
  period: StatementPeriod,
  generatedBy: string,
  locale?: Locale,
): Promise<StatementDocument> {
  return withLiveStatement(period, generatedBy, locale, async (doc) => {
    const chunks: StatementPosting[][] = [];
    for await (const chunk of doc.lines()) chunks.push(chunk);
    return {
      ...doc,
      lines: async function* () {
        yield* chunks;
      },
    };
  });
}
