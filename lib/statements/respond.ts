import "server-only";
import { PassThrough, type Writable } from "node:stream";
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
  const chunks = out[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await chunks.next();
        if (next.done) controller.close();
        else controller.enqueue(new Uint8Array(next.value));
      } catch (error) {
        controller.error(error);
      }
    },
    cancel() {
      cancelled = true;
      out.destroy();
    },
  });
  return new Response(body, { headers: headers(format, name) });
}

export function bytesResponse(bytes: Buffer, format: ExportFormat, name: string): Response {
  return new Response(new Uint8Array(bytes), { headers: headers(format, name) });
}
