import "server-only";
import { PassThrough, Readable, type Writable } from "node:stream";
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

function headers(format: ExportFormat, name: string): HeadersInit {
  return {
    "content-type": contentTypes[format],
    "content-disposition": `attachment; filename="${safeName(name)}.${format}"`,
    "cache-control": "no-store",
  };
}

/** Streams a statement in a format; a failure mid-stream is logged and breaks the download (never a partial file as whole). */
export function statementResponse(doc: StatementDocument, format: ExportFormat, name: string): Response {
  const out = new PassThrough();
  renderers[format](doc, out)
    .then(() => out.end())
    .catch((error: unknown) => {
      getLog().error({ err: error, format }, "statement export failed");
      out.destroy(error instanceof Error ? error : new Error("statement export failed"));
    });
  return new Response(Readable.toWeb(out) as ReadableStream<Uint8Array>, { headers: headers(format, name) });
}

export function bytesResponse(bytes: Buffer, format: ExportFormat, name: string): Response {
  return new Response(new Uint8Array(bytes), { headers: headers(format, name) });
}
