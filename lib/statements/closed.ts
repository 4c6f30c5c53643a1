import type { Writable } from "node:stream";

/**
 * A download the client went away from: the renderers stop reading lines then (a live statement's lines
 * come from a snapshot transaction that holds a database connection until the rendering ends).
 */
export class DownloadClosedError extends Error {
  constructor() {
    super("the download was closed");
  }
}

/** Throws once the download is closed. */
export function assertOpen(out: Writable): void {
  if (out.destroyed) throw new DownloadClosedError();
}

/**
 * Settles when `out` has finished (resolves) or fails or closes before finishing (rejects). Handled from
 * the start: a rejection that comes while the caller is still rendering is not an unhandled one.
 */
export function finished(out: Writable): Promise<void> {
  const done = new Promise<void>((resolve, reject) => {
    if (out.writableFinished) return resolve();
    if (out.destroyed) return reject(new DownloadClosedError());
    out.once("finish", resolve);
    out.once("error", reject);
    out.once("close", () => (out.writableFinished ? resolve() : reject(new DownloadClosedError())));
  });
  done.catch(() => undefined);
  return done;
}
