import type { Readable } from "node:stream";

export type BodyRead = {
  /** The body as text, at most `maxBytes` of it. */
  text: string;
  /** Bytes read from the request (all of them when complete). */
  bytes: number;
  /** False when reading stopped because the body is longer than `maxBytes`. */
  complete: boolean;
};

/**
 * Reads a request body as text, at most `maxBytes`: past that it stops reading (the rest stays
 * unread on the socket; the answer must close the connection) and reports the body incomplete.
 */
export function readBodyLimited(body: Readable, maxBytes: number): Promise<BodyRead> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let bytes = 0;
    const finish = (complete: boolean) => {
      body.off("data", onData).off("end", onEnd).off("error", onError);
      const text = Buffer.concat(chunks).subarray(0, maxBytes).toString("utf8");
      resolve({ text, bytes, complete });
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      bytes += chunk.byteLength;
      if (bytes > maxBytes) {
        body.pause();
        finish(false);
      }
    };
    const onEnd = () => finish(true);
    const onError = (error: Error) => {
      body.off("data", onData).off("end", onEnd).off("error", onError);
      reject(error);
    };
    body.on("data", onData).on("end", onEnd).on("error", onError);
  });
}

/** The same answer for a body already in memory (callers that hold the whole text). */
export function readTextLimited(text: string, bytes: number, maxBytes: number): BodyRead {
  if (bytes <= maxBytes) return { text, bytes, complete: true };
  return { text: Buffer.from(text).subarray(0, maxBytes).toString("utf8"), bytes, complete: false };
}
