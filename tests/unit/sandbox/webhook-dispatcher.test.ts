// The sandbox sends a platform's burst of webhooks at once, each request listening on the dispatcher's
// stop signal: no leak warning for that, every listener gone once its request closes, and stop() ends
// the requests still waiting for an answer.
import { getEventListeners } from "node:events";
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { NO_FAULTS } from "../../../sandbox/faults";
import { WebhookDispatcher } from "../../../sandbox/webhooks";

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

function dispatcherFor() {
  const dispatcher = new WebhookDispatcher({
    retry: { baseMs: 1_000, attempts: 1 },
    timeoutMs: 5_000,
    faults: () => NO_FAULTS,
    now: () => new Date(),
    onChange: () => {},
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
});
