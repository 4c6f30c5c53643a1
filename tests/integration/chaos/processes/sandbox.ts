// The platform sandbox as an OS process of its own for the multi-process chaos test. Its delivery log
// (tens of megabytes over HTTP) is summarised here and sent over IPC on request.
import { createSandbox } from "../../../../sandbox/index";

const sandbox = await createSandbox({
  port: 0,
  seedDemoHistory: false,
  autopilot: { minDelayMs: 20, maxDelayMs: 200 },
  // Deliveries aimed at the killed web process fail until its replacement is up, and every one fails
  // 20 % of the time: capped, the waits outlast a restart (60 attempts span ~2 min) and the last
  // delivery settles within 2 s of the receivers being back. Uncapped (14 attempts, 100 ms doubling),
  // one delivery's 13th attempt came 409 s after its first, and the test took 439 s instead of 90.
  webhookRetry: { baseMs: 100, maxMs: 2_000, attempts: 60 },
  webhookTimeoutMs: 10_000,
  // every delivery stays in the log, so that "0 lost events" is checked over all of them
  webhookLogCapacity: 1_000_000,
});
const demo = sandbox.merchants().find((m) => m.id === "demo");
process.send?.({ ready: { url: sandbox.url, token: demo?.token } });

export type DeliverySummary = {
  total: number;
  scheduled: number;
  failed: string[];
  /** operationId:status of every event the platform counts as delivered. */
  delivered: string[];
};

process.on("message", (message) => {
  if (message !== "summary") return;
  const log = sandbox.platform.webhooks.deliveries(null);
  const summary: DeliverySummary = {
    total: log.length,
    scheduled: log.filter((d) => d.state === "scheduled").length,
    failed: log.filter((d) => d.state === "failed").map((d) => `${d.operationId}:${d.operationStatus}`),
    delivered: [
      ...new Set(
        log.filter((d) => d.state === "delivered").map((d) => `${d.operationId}:${d.operationStatus}`),
      ),
    ],
  };
  process.send?.({ summary });
});
process.on("disconnect", () => void sandbox.stop().finally(() => process.exit(0)));
process.on("SIGTERM", () => void sandbox.stop().finally(() => process.exit(0)));
