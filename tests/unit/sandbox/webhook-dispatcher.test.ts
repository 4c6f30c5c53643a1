// The sandbox sends a platform's burst of webhooks at once, each request listening on the dispatcher's
// stop signal: no leak warning for that, every listener gone once its request closes, and stop() ends
// the requests still waiting for an answer. And the redelivery schedule, with and without its cap.
import { getEventListeners } from "node:events";
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { NO_FAULTS } from "../../../sandbox/faults";
import { WebhookDispatcher, type WebhookRetry } from "../../../sandbox/webhooks";

const warnings: Error[] = [];
const onWarning = (warning: Error) => warnings.push(warning);
afterEach(() => {
  process.off("warning", onWarning);
  warnings.length = 0;
});

async function holdingReceiver() {
  const waiting: ServerResponse[] = [];
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => waiting.push(res));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    waiting,
    answerAll: () => waiting.splice(0).forEach((res) => res.end("ok")),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function dispatcherFor(options: { retry?: WebhookRetry; now?: () => Date; onChange?: () => void } = {}) {
  const dispatcher = new WebhookDispatcher({
    retry: options.retry ?? { baseMs: 1_000, attempts: 1 },
    timeoutMs: 5_000,
    faults: () => NO_FAULTS,
    now: options.now ?? (() => new Date()),
    onChange: options.onChange ?? (() => {}),
  });
  const signal = (dispatcher as unknown as { aborter: AbortController }).aborter.signal;
  return { dispatcher, listeners: () => getEventListeners(signal, "abort").length };
}

const event = (url: string, n: number) => ({
  operationId: `op-${n}`,
  merchantId: "demo",
  operationStatus: "success",
  url,
  body: JSON.stringify({ n }),
  headers: {},
});

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
}

describe("the sandbox's webhook dispatcher under a burst", () => {
  it("sends 40 at once with no leak warning, and holds no listener once they are answered", async () => {
    process.on("warning", onWarning);
    const receiver = await holdingReceiver();
    const { dispatcher, listeners } = dispatcherFor();
    for (let n = 0; n < 40; n++) dispatcher.emit(event(receiver.url, n));
    await until(() => receiver.waiting.length === 40);
    expect(receiver.waiting).toHaveLength(40);
    expect(listeners()).toBe(40);
    receiver.answerAll();
    await until(() => dispatcher.deliveries(null).every((d) => d.state === "delivered"));
    expect(dispatcher.deliveries(null).map((d) => d.state)).toEqual(Array(40).fill("delivered"));
    await until(() => listeners() === 0);
    expect(listeners()).toBe(0);
    await new Promise((r) => setImmediate(r)); // a process warning is emitted on the next tick
    expect(warnings.map((w) => w.name)).toEqual([]);
    await dispatcher.stop();
    await receiver.close();
  });

  it("stop() ends the requests still waiting for an answer; they stay scheduled", async () => {
    const receiver = await holdingReceiver();
    const { dispatcher } = dispatcherFor();
    for (let n = 0; n < 12; n++) dispatcher.emit(event(receiver.url, n));
    await until(() => receiver.waiting.length === 12);
    await dispatcher.stop();
    expect(dispatcher.deliveries(null).map((d) => d.state)).toEqual(Array(12).fill("scheduled"));
    await receiver.close();
  });

  it("waits baseMs * 2^(n-1) between attempts, at most maxMs when given", async () => {
    const refusing = createServer((req, res) => req.resume().on("end", () => res.writeHead(500).end()));
    await new Promise<void>((resolve) => refusing.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(refusing.address() as AddressInfo).port}/hook`;
    const waitsWith = async (retry: WebhookRetry) => {
      const at = new Date("2026-11-25T12:00:00.000Z");
      const waits: number[] = [];
      const { dispatcher } = dispatcherFor({
        retry,
        now: () => at,
        onChange: () => {
          const next = dispatcher.deliveries(null)[0]?.nextAttemptAt;
          if (next) waits.push(Date.parse(next) - at.getTime());
        },
      });
      dispatcher.emit(event(url, 1));
      await until(() => dispatcher.deliveries(null)[0]?.state === "failed");
      expect(dispatcher.deliveries(null)[0]?.attempts).toHaveLength(retry.attempts);
      await dispatcher.stop();
      return waits;
    };
    expect(await waitsWith({ baseMs: 5, attempts: 5 })).toEqual([5, 10, 20, 40]);
    expect(await waitsWith({ baseMs: 5, maxMs: 12, attempts: 5 })).toEqual([5, 10, 12, 12]);
    await new Promise<void>((resolve) => refusing.close(() => resolve()));
  });
});
