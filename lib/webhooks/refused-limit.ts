import "server-only";
import { isIP } from "node:net";
import { getEnv } from "@/lib/env";
import { createRateLimit } from "@/lib/http/rate-limit";
import { getLog } from "@/lib/log";

const WINDOW_MS = 60_000;

/**
 * How many refused or malformed webhook requests one source may have stored per minute. Past that
 * they are answered 429 and not stored, so nobody can fill the database from outside; one warning
 * per source and minute says so. Accepted deliveries never pass through here.
 */
export type RefusedLimit = {
  /** Counts one refused request from the source; false when it must be answered 429, unstored. */
  allow(sourceIp: string | null): boolean;
  /** Forgets every source (tests). */
  reset(): void;
};

/**
 * The key a source is counted under: its address, or for IPv6 its /64 (one host usually holds a whole
 * /64, so counting single addresses would give it billions of allowances).
 */
export function sourceKey(ip: string | null): string {
  if (!ip || isIP(ip) !== 6) return ip ?? "unknown";
  const [head = "", tail = ""] = ip.split("::") as [string, string?];
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const groups = ip.includes("::")
    ? [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill("0"), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((g) => (parseInt(g, 16) || 0).toString(16))
    .join(":")}::/64`;
}

export function createRefusedLimit(perMinute: number, now: () => number = Date.now): RefusedLimit {
  const limit = createRateLimit({ limit: perMinute, windowMs: WINDOW_MS });
  // Sources warned about in the current window, with the window they were warned in.
  let warned = new Map<string, number>();
  return {
    allow(sourceIp) {
      const at = now();
      const key = sourceKey(sourceIp);
      if (limit.take(key, at)) return true;
      const window = at - (at % WINDOW_MS);
      if (warned.get(key) !== window) {
        if (warned.size > 10_000) warned = new Map();
        warned.set(key, window);
        getLog().warn(
          { source: key, refusedThisMinute: perMinute + 1, limitPerMinute: perMinute },
          "refused webhook requests over the limit: answering 429 and storing nothing until the minute ends",
        );
      }
      return false;
    },
    reset() {
      limit.reset();
      warned = new Map();
    },
  };
}

let shared: RefusedLimit | undefined;

/** The process's limit, WEBHOOK_REFUSED_PER_MINUTE per source. */
export function refusedLimit(): RefusedLimit {
  shared ??= createRefusedLimit(getEnv().WEBHOOK_REFUSED_PER_MINUTE);
  return shared;
}
