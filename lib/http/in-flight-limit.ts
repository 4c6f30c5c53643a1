/**
 * At most `limit` things under way per key (a user id), kept in this process's memory: with several web
 * processes each counts its own. Unlike a rate limit it counts what has not ended yet, so a key is free
 * again as soon as one of its slots is released.
 */
export type InFlightLimit = {
  /** Takes a slot: its release (calling it again does nothing), or null when the key holds `limit`. */
  acquire(key: string): (() => void) | null;
  /** How many slots the key holds. */
  inFlight(key: string): number;
};

export function createInFlightLimit(limit: number): InFlightLimit {
  const held = new Map<string, number>();
  return {
    acquire(key) {
      const count = held.get(key) ?? 0;
      if (count >= limit) return null;
      held.set(key, count + 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        const left = (held.get(key) ?? 1) - 1;
        if (left > 0) held.set(key, left);
        else held.delete(key);
      };
    },
    inFlight: (key) => held.get(key) ?? 0,
  };
}
