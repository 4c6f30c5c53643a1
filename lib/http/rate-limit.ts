/**
 * A fixed-window counter per key (a user id, a source IP), kept in this process's memory. It guards
 * against bursts from one caller (digit-by-digit probing, refused webhooks filling the database);
 * with several web processes each counts its own share, so a caller gets at most `limit` per window
 * per process. Windows are keyed by their start, so a quiet key costs nothing after its window ends.
 */
export type RateLimit = {
  /** Counts one hit for the key; false when the key already used its allowance in this window. */
  take(key: string, now?: number): boolean;
  /** Forgets every key (tests). */
  reset(): void;
};

export function createRateLimit(options: { limit: number; windowMs: number; maxKeys?: number }): RateLimit {
  const { limit, windowMs, maxKeys = 10_000 } = options;
  let windowStart = 0;
  let counts = new Map<string, number>();
  return {
    take(key, now = Date.now()) {
      const start = now - (now % windowMs);
      if (start !== windowStart) {
        windowStart = start;
        counts = new Map();
      }
      const used = counts.get(key) ?? 0;
      if (used >= limit) return false;
      // A flood of distinct keys must not grow memory without bound: past the cap, new keys share one.
      const slot = counts.has(key) || counts.size < maxKeys ? key : "\u0000overflow";
      const slotUsed = counts.get(slot) ?? 0;
      if (slotUsed >= limit) return false;
      counts.set(slot, slotUsed + 1);
      return true;
    },
    reset() {
      counts = new Map();
      windowStart = 0;
    },
  };
}
