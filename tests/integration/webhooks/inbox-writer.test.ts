import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { storeInboxRow, type InboxRow } from "@/lib/webhooks/inbox-writer";

const row = (body: string): InboxRow => ({
  sourceIp: "203.0.113.1",
  headers: { "content-type": "application/json" },
  body,
  bodyBytes: Buffer.byteLength(body),
  outcome: "malformed",
  outcomeCode: "bodyNotJson",
  outcomeArgs: { detail: "inbox writer test" },
  operationId: null,
  operationStatus: null,
  traceID: null,
  processedAt: new Date(),
});

describe("webhook inbox writer (group commit)", () => {
  it("stores a burst of concurrent webhooks, each with its own id and body", async () => {
    const bodies = Array.from({ length: 120 }, (_, i) => `{"inbox-writer-burst":${i}}`);
    const ids = await Promise.all(bodies.map((b) => storeInboxRow(row(b))));
    expect(new Set(ids.map(String)).size).toBe(bodies.length);
    const stored = await getDb().webhookDelivery.findMany({
      where: { id: { in: ids } },
      select: { id: true, body: true },
    });
    const byId = new Map(stored.map((s) => [s.id, s.body]));
    ids.forEach((id, i) => expect(byId.get(id)).toBe(bodies[i]));
  });

  it("one unstorable webhook fails alone; the others in its batch are stored", async () => {
    const results = await Promise.allSettled([
      storeInboxRow(row('{"inbox-writer-ok":1}')),
      storeInboxRow(row("bad \u0000 byte")),
      storeInboxRow(row('{"inbox-writer-ok":2}')),
    ]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    const ids = results.flatMap((r) => (r.status === "fulfilled" ? [r.value] : []));
    expect(await getDb().webhookDelivery.count({ where: { id: { in: ids } } })).toBe(2);
  });
});

describe("receiver and NUL characters", () => {
  it("answers 400 and keeps a body with NUL characters for audit", async () => {
    const { receiveWebhook } = await import("@/lib/webhooks/receive");
    const body = '{"status":"Success","data":{"id":"x\u0000"}}';
    const result = await receiveWebhook(
      {
        body,
        bodyBytes: Buffer.byteLength(body),
        headers: new Headers(),
        sourceIp: "203.0.113.2",
        pathSecret: null,
      },
      { pathSecret: null, maxBodyBytes: 65_536 },
    );
    expect(result).toMatchObject({ httpStatus: 400, outcome: "malformed" });
    const stored = await getDb().webhookDelivery.findUniqueOrThrow({ where: { id: result.deliveryId } });
    expect(stored.body).toBe('{"status":"Success","data":{"id":"x\uFFFD"}}');
  });
});
