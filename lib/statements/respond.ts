import "server-only";
import { PassThrough, type Writable } from "node:stream";
import { downloadHeaders, pullStream } from "@/lib/http/download";
import { getLog } from "@/lib/log";
import { contentTypes, type ExportFormat, type StatementDocument } from "@/lib/statements/document";
import { writeStatementCsv } from "@/lib/statements/csv";
import { writeStatementPdf } from "@/lib/statements/pdf";
import { writeStatementXlsx } from "@/lib/statements/xlsx";

export const renderers: Record<ExportFormat, (doc: StatementDocument, out: Writable) => Promise<void>> = {
  csv: writeStatementCsv,
  xlsx: writeStatementXlsx,
  pdf: writeStatementPdf,
};

const safeName = (name: string) => name.replace(/[^\w.-]+/g, "_").slice(0, 120);

const headers = (format: ExportFormat, name: string) =>
  downloadHeaders(contentTypes[format], `${safeName(name)}.${format}`);

/**
 * Streams a statement in a format, pulled by the client: a failure mid-stream is logged and breaks the
 * download; a client that goes away stops the rendering.
 */
export function statementResponse(doc: StatementDocument, format: ExportFormat, name: string): Response {
  const out = new PassThrough();
  let cancelled = false;
  renderers[format](doc, out)
    .then(() => out.end())
    .catch((error: unknown) => {
      if (!cancelled) getLog().error({ err: error, format }, "statement export failed");
      out.destroy(error instanceof Error ? error : new Error("statement export failed"));
    });
  const body = pullStream(out[Symbol.asyncIterator]() as AsyncIterator<Buffer>, () => {
    cancelled = true;
    out.destroy();
  });
  return new Response(body, { headers: headers(format, name) });
}

export function bytesResponse(bytes: Buffer, format: ExportFormat, name: string): Response {
  return new Response(new Uint8Array(bytes), { headers: headers(format, name) });
}
