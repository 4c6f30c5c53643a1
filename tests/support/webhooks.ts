// Delivering a webhook to the receiver the way the platform does, for tests that process the inbox.
import { randomUUID } from "node:crypto";
import type { Operation } from "@/lib/platform/schemas";
import { receiveWebhook } from "@/lib/webhooks/receive";

/** `data` in the spec's envelope, received with no secrets configured (the receiver's checks pass). */
export function deliverEnvelope(data: Record<string, unknown>, sourceIp = "203.0.113.10") {
  const body = JSON.stringify({ status: "Success", data, traceID: randomUUID() });
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
  await deliverEnvelope(JSON.parse(op.rawJson) as Record<string, unknown>);
}
