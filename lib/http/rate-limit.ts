/**
 * A fixed-window counter per key (a user id, a source IP), kept in this process's memory. It guards
 * against bursts from one caller (digit-by-digit probing, refused webhooks filling the database);
 * with several web processes each counts its own share, so a caller gets at most `limit` per window
 * per process. Windows are keyed by their start, so a quiet key costs nothing after its window ends.
 */
export type RateLimit = {
  /** Counts one hit for the key; false when the key already used its allowance in this window. */
  take(key: string, now?: number): boolean;
  /** How many hits the key has counted in the current window (at most `limit`). */
  used(key: string, now?: number): number;
  /** Forgets every key (tests). */
  reset(): void;
};

export function createRateLimit(options: { limit: number; windowMs: number; maxKeys?: number }): RateLimit {
  const { limit, windowMs, maxKeys = 10_000 } = options;
  let windowStart = 0;
  let counts = new Map<string, number>();
  // A flood of distinct keys must not grow memory without bound: past the cap, new keys share one.
  const slotOf = (key: string) => (counts.has(key) || counts.size < maxKeys ? key : "\u0000overflow");
  return {
    take(key, now = Date.now()) {
      const start = now - (now % windowMs);
      if (start !== windowStart) {
        windowStart = start;
        counts = new Map();
      }
      const used = counts.get(key) ?? 0;
      if (used >= limit) return false;
      const slot = slotOf(key);
      const slotUsed = counts.get(slot) ?? 0;
      if (slotUsed >= limit) return false;
      counts.set(slot, slotUsed + 1);
      return true;
    },
    used(key, now = Date.now()) {
      if (now - (now % windowMs) !== windowStart) return 0;
      return counts.get(slotOf(key)) ?? 0;
    },
    reset() {
      counts = new Map();
      windowStart = 0;
    },
  };
}
