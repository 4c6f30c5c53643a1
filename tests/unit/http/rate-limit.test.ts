import { describe, expect, it } from "vitest";
import { createRateLimit } from "@/lib/http/rate-limit";

describe("createRateLimit", () => {
  it("allows `limit` hits per key per window, then refuses until the next window", () => {
    const limit = createRateLimit({ limit: 3, windowMs: 60_000 });
    const t = 1_000_000 * 60_000;
    expect([1, 2, 3, 4].map(() => limit.take("u1", t + 5))).toEqual([true, true, true, false]);
    expect(limit.take("u2", t + 10)).toBe(true);
    expect(limit.take("u1", t + 59_999)).toBe(false);
    expect(limit.take("u1", t + 60_000)).toBe(true);
  });

  it("puts keys beyond the cap into one shared allowance instead of growing without bound", () => {
    const limit = createRateLimit({ limit: 2, windowMs: 1_000, maxKeys: 2 });
    expect(limit.take("a", 0)).toBe(true);
    expect(limit.take("b", 0)).toBe(true);
    expect(limit.take("c", 0)).toBe(true);
    expect(limit.take("d", 0)).toBe(true);
    expect(limit.take("e", 0)).toBe(false);
    expect(limit.take("a", 0)).toBe(true);
  });

  it("tells how many hits a key used in the current window, capped at the limit", () => {
    const limit = createRateLimit({ limit: 3, windowMs: 1_000, maxKeys: 2 });
    expect(limit.used("a", 10)).toBe(0);
    limit.take("a", 10);
    limit.take("a", 20);
    expect(limit.used("a", 30)).toBe(2);
    for (let i = 0; i < 5; i++) limit.take("a", 40);
    expect(limit.used("a", 50)).toBe(3);
    limit.take("b", 60);
    // past the key cap, a new key reports the shared allowance it would draw on
    limit.take("c", 70);
    expect(limit.used("d", 80)).toBe(1);
    expect(limit.used("a", 1_000)).toBe(0);
  });

  it("starts over after reset", () => {
    const limit = createRateLimit({ limit: 1, windowMs: 1_000 });
    expect(limit.take("k", 10)).toBe(true);
    expect(limit.take("k", 20)).toBe(false);
    limit.reset();
    expect(limit.take("k", 30)).toBe(true);
  });
});
