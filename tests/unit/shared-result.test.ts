// The health routes are public: however many requests arrive, one check at a time runs, and its answer is
// reused for a moment after it finishes.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { sharedResult } from "@/lib/shared-result";

type Answer = { ok: boolean };
const healthy: Answer = { ok: true };

function countedCheck() {
  const calls: Array<(h: Answer) => void> = [];
  const failures: Array<(e: Error) => void> = [];
  const check = vi.fn(
    () =>
      new Promise<Answer>((resolve, reject) => {
        calls.push(resolve);
        failures.push(reject);
      }),
  );
  return {
    check,
    finish: (i: number) => calls[i]?.(healthy),
    fail: (i: number) => failures[i]?.(new Error("db")),
  };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe("sharedResult", () => {
  it("runs one check for many concurrent callers, and they all get its answer", async () => {
    const { check, finish } = countedCheck();
    const current = sharedResult(check, 1_000);
    const answers = Array.from({ length: 50 }, () => current());
    expect(check).toHaveBeenCalledTimes(1);
    finish(0);
    expect(new Set(await Promise.all(answers)).size).toBe(1);
  });

  it("reuses a finished answer for the reuse time, then checks again", async () => {
    const { check, finish } = countedCheck();
    const current = sharedResult(check, 1_000);
    const first = current();
    finish(0);
    await first;
    vi.advanceTimersByTime(999);
    expect(current()).toBe(first);
    expect(check).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1);
    const second = current();
    expect(second).not.toBe(first);
    expect(check).toHaveBeenCalledTimes(2);
  });

  it("keeps sharing a check that runs longer than the reuse time", () => {
    const { check } = countedCheck();
    const current = sharedResult(check, 1_000);
    const first = current();
    vi.advanceTimersByTime(5_000);
    expect(current()).toBe(first);
    expect(check).toHaveBeenCalledTimes(1);
  });

  it("does not keep a check that threw: the next caller checks again", async () => {
    const { check, fail } = countedCheck();
    const current = sharedResult(check, 1_000);
    const first = current();
    fail(0);
    await expect(first).rejects.toThrow("db");
    current().catch(() => {});
    expect(check).toHaveBeenCalledTimes(2);
  });
});
