import { downloadHeaders, pullStream } from "@/lib/http/download";
import { CSV_CONTENT_TYPE } from "./encode";

/** CSV lines (text or bytes) as a byte stream pulled by the client. */
export function csvStream(parts: AsyncGenerator<string | Uint8Array>): ReadableStream<Uint8Array> {
  return pullStream(parts);
}

/** A CSV download named `<name>-<UTC time>.csv`, streamed. */
export function csvResponse(parts: AsyncGenerator<string | Uint8Array>, name: string): Response {
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  return new Response(csvStream(parts), {
    headers: downloadHeaders(CSV_CONTENT_TYPE, `${name}-${stamp}.csv`),
  });
}
