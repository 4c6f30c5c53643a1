// A reconciliation run in the worker waits between pages while webhook processing is behind, within a
// bound: webhooks first, and the safety net never stops.
import { describe, expect, it } from "vitest";
import { yieldToWebhooks } from "@/lib/reconcile/yield";

function probe(waits: number[]) {
  const slept: number[] = [];
  let i = 0;
  return {
    slept,
    waitMs: async () => waits[Math.min(i++, waits.length - 1)]!,
    sleep: async (ms: number) => void slept.push(ms),
  };
}

describe("yieldToWebhooks", () => {
  it("does not wait while no delivery has waited over a second", async () => {
    const p = probe([0, 400, 1_000]);
    expect(await yieldToWebhooks(p)).toBe(0);
    expect(p.slept).toEqual([]);
  });

  it("waits until processing has caught up", async () => {
    const p = probe([3_400, 2_100, 1_200, 300]);
    expect(await yieldToWebhooks(p)).toBe(750);
    expect(p.slept).toEqual([250, 250, 250]);
  });

  it("gives up after 10 s when processing stays behind", async () => {
    const p = probe([60_000]);
    expect(await yieldToWebhooks(p)).toBe(10_000);
    expect(p.slept).toHaveLength(40);
  });
});
