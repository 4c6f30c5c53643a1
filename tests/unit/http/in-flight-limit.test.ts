import { describe, expect, it } from "vitest";
import { createInFlightLimit } from "@/lib/http/in-flight-limit";

describe("createInFlightLimit", () => {
  it("holds at most `limit` slots per key; a released slot is free again", () => {
    const limit = createInFlightLimit(2);
    const first = limit.acquire("u1");
    const second = limit.acquire("u1");
    expect(first && second).toBeTruthy();
    expect(limit.acquire("u1")).toBeNull();
    expect(limit.acquire("u2")).not.toBeNull();
    first!();
    expect(limit.inFlight("u1")).toBe(1);
    expect(limit.acquire("u1")).not.toBeNull();
  });

  it("counts a release once, however often it is called", () => {
    const limit = createInFlightLimit(2);
    const release = limit.acquire("u1")!;
    limit.acquire("u1");
    release();
    release();
    expect(limit.inFlight("u1")).toBe(1);
    expect(limit.acquire("u1")).not.toBeNull();
    expect(limit.acquire("u1")).toBeNull();
  });

  it("forgets a key whose slots are all released", () => {
    const limit = createInFlightLimit(1);
    limit.acquire("u1")!();
    expect(limit.inFlight("u1")).toBe(0);
  });
});
