/**
 * When whatever reads this process's output has gone (a Procfile runner that stopped before its children,
 * a closed terminal), every write to stdout or stderr fails with EPIPE. Unhandled, that failure is an
 * uncaught exception: the webhook receiver exited at its next line of output, skipping its shutdown grace,
 * and with Next.js, whose handler logs the exception to the same dead stream, the web server spun a core
 * until its shutdown bound ended it. From the first EPIPE the stream's output is dropped, as pino does for
 * its own; any other error on the stream stays what it was.
 */
export function dropOutputOnceItsReaderIsGone(): void {
  for (const stream of [process.stdout, process.stderr]) {
    const onError = (error: NodeJS.ErrnoException) => {
      stream.removeListener("error", onError);
      if (error.code === "EPIPE") stream.write = () => true;
      else stream.emit("error", error);
    };
    stream.on("error", onError);
  }
}
