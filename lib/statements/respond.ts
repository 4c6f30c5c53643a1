import "server-only";
import { PassThrough, type Writable } from "node:stream";
import { downloadHeaders, pullStream } from "@/lib/http/download";
import type { Locale } from "@/lib/i18n/locales";
import type { StatementPeriod } from "@/lib/ledger/statement";
import { getLog } from "@/lib/log";
import { contentTypes, type ExportFormat, type StatementDocument } from "@/lib/statements/document";
import { writeStatementCsv } from "@/lib/statements/csv";
import { withLiveStatement } from "@/lib/statements/live";
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
 * Streams what `render` writes, pulled by the client: a failure mid-stream is logged and breaks the
 * download; a client that goes away stops the rendering. `rendered` settles when the rendering has
 * ended, either way (it never rejects).
 */
function streamed(
  render: (out: Writable) => Promise<void>,
  format: ExportFormat,
  name: string,
): { response: Response; rendered: Promise<void> } {
  const out = new PassThrough();
  let cancelled = false;
  const rendered = render(out).then(
    () => void out.end(),
    (error: unknown) => {
      if (!cancelled) getLog().error({ err: error, format }, "statement export failed");
      out.destroy(error instanceof Error ? error : new Error("statement export failed"));
    },
  );
  const body = pullStream(out[Symbol.asyncIterator]() as AsyncIterator<Buffer>, () => {
    cancelled = true;
    out.destroy();
  });
  return { response: new Response(body, { headers: headers(format, name) }), rendered };
}

/**
 * Streams a statement of the ledger as it is now: its summary and lines from one snapshot, held until the
 * rendering ends (withLiveStatement). Answers once the summary is read: a failure before that rejects, for
 * the route to answer with an error instead of a broken download.
 */
export function liveStatementResponse(
  period: StatementPeriod,
  generatedBy: string,
  locale: Locale | undefined,
  format: ExportFormat,
  name: string,
): Promise<Response> {
  return new Promise<Response>((resolve, reject) => {
    withLiveStatement(period, generatedBy, locale, async (doc) => {
      const { response, rendered } = streamed((out) => renderers[format](doc, out), format, name);
      resolve(response);
      await rendered;
    }).catch(reject); // once answered, a rejection changes nothing: a failed rendering was logged above
  });
}

export function bytesResponse(bytes: Buffer, format: ExportFormat, name: string): Response {
  return new Response(new Uint8Array(bytes), { headers: headers(format, name) });
}
