/**
 * One run of `produce` answers every caller for a while: concurrent callers share the run in flight,
 * and a finished one answers for `reuseMs` more; a run that threw is not kept. For checks that anyone
 * may ask for (the health routes are public): a flood of requests must not become a flood of work.
 */
export function sharedResult<T>(produce: () => Promise<T>, reuseMs: number): () => Promise<T> {
  let current: Promise<T> | null = null;
  let freshUntil = 0; // Infinity while the run is in flight
  return () => {
    if (current && Date.now() < freshUntil) return current;
    const started = produce();
    current = started;
    freshUntil = Number.POSITIVE_INFINITY;
    started.then(
      () => {
        freshUntil = Date.now() + reuseMs;
      },
      () => {
        current = null;
      },
    );
    return started;
  };
}
