// Delivering a webhook the way the platform does: straight to the receiver for tests that process the
// inbox, or over HTTP to the node:http receiver of scripts/server.ts.
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { Operation } from "@/lib/platform/schemas";
import { handleIfWebhook, type ReceiverOptions } from "@/lib/webhooks/http-receiver";
import { receiveWebhook } from "@/lib/webhooks/receive";
import { snapshot, wireJsonOf } from "./operations";

/** The spec's envelope around `data`, as the platform posts it. */
export function envelopeBody(data: unknown, traceID: string = randomUUID()): string {
  return JSON.stringify({ status: "Success", data, traceID });
}

/** A webhook body for an operation (a fresh one in progress by default). */
export function webhookBody(op: Operation = snapshot({ status: "in_progress" }), traceID?: string): string {
  return envelopeBody(JSON.parse(wireJsonOf(op)), traceID);
}

/** `data` in the spec's envelope, received with no secrets configured (the receiver's checks pass). */
export function deliverEnvelope(data: Record<string, unknown>, sourceIp = "203.0.113.10") {
  const body = envelopeBody(data);
  return receiveWebhook(
    {
      body,
      bodyBytes: Buffer.byteLength(body),
      headers: new Headers({ "content-type": "application/json" }),
      sourceIp,
      pathSecret: null,
    },
    { pathSecret: null, maxBodyBytes: 65_536 },
  );
}

/** The operation as its webhook. */
export async function deliverOperation(op: Operation): Promise<void> {
  await deliverEnvelope(JSON.parse(wireJsonOf(op)) as Record<string, unknown>);
}

export type WebhookServer = { origin: string; close: () => Promise<void> };

/**
 * What scripts/server.ts does: the webhook receiver on 127.0.0.1, in front of a stand-in for Next.js
 * that answers 418 "next" to every request the receiver leaves alone.
 */
export async function startWebhookServer(options: ReceiverOptions = {}): Promise<WebhookServer> {
  const server = createServer((request, response) => {
    if (!handleIfWebhook(request, response, options)) response.writeHead(418).end("next");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
