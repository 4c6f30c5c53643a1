import "server-only";
import type { PlatformClient } from "@/lib/platform/client";
import { processPendingWebhooks } from "@/lib/webhooks/process";

const IDLE_POLL_MS = 250;
const BATCH = 200;

export type ProcessingLoops = { stop: () => Promise<void> };

/**
 * Runs `loops` webhook processing loops side by side. Each leases a few deliveries at a time and
 * handles them one after the other, waiting for each read-back, so the platform's latency, not this
 * process's CPU, bounds a loop: `loops` is how many read-backs one worker has in flight. Deliveries of
 * one operation handled by two loops at once are serialised where they are applied (apply-snapshot.ts
 * takes the operation's advisory lock and never lets a status go back). `stop` lets each loop finish
 * the delivery it is deciding and give back the rest of its batch at once (a process killed first leaves
 * their leases to run out: another worker takes them a minute later).
 */
export function startProcessingLoops(
  platform: Pick<PlatformClient, "getOperation">,
  loops: number,
  onError: (error: unknown) => void,
): ProcessingLoops {
  let running = true;
  const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
  const loop = async () => {
    while (running) {
      try {
        const handled = await processPendingWebhooks(platform, BATCH, () => running);
        if (handled === 0) await pause(IDLE_POLL_MS);
      } catch (error) {
        onError(error);
        await pause(IDLE_POLL_MS * 4);
      }
    }
  };
  const all = Array.from({ length: loops }, () => loop());
  return {
    stop: async () => {
      running = false;
      await Promise.all(all);
    },
  };
}
