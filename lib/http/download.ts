/**
 * A byte stream that reads on only when the client has taken what came before, so a large download
 * never sits in memory. When the client goes away, `onCancel` runs, or else the source is closed.
 */
export function pullStream(
  parts: AsyncIterator<string | Uint8Array>,
  onCancel?: () => void,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await parts.next();
        if (next.done) controller.close();
        else controller.enqueue(typeof next.value === "string" ? encoder.encode(next.value) : next.value);
      } catch (error) {
        controller.error(error);
      }
    },
    async cancel() {
      if (onCancel) onCancel();
      else await parts.return?.(undefined);
    },
  });
}

/** The headers of a file download: its type, saved under `filename`, never cached. */
export function downloadHeaders(contentType: string, filename: string): HeadersInit {
  return {
    "content-type": contentType,
    "content-disposition": `attachment; filename="${filename}"`,
    "cache-control": "no-store",
  };
}
