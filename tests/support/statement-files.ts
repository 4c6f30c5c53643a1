// A statement rendered to bytes the way a download streams it, and a PDF's text as a reader extracts it.
import { PassThrough, type Writable } from "node:stream";
import type { StatementDocument } from "@/lib/statements/document";

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
