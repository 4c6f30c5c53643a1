import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { BODY_BYTES_MAX, storeInboxRow, type InboxRow } from "@/lib/webhooks/inbox-writer";
import { readBodyLimited } from "@/lib/webhooks/read-body";

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

// bodyBytes is INT4; a refused request's size is its declared Content-Length when that is larger than
// what was read, and the receiver takes up to 15 declared digits.
describe("a declared size beyond the column", () => {
  it("is stored as the column's maximum, with the others of its batch; its note keeps the declared size", async () => {
    const huge = { ...row('{"inbox-writer-huge":1}'), bodyBytes: 99_999_999_999 };
    const ids = await Promise.all([
      storeInboxRow(row('{"inbox-writer-next-to-huge":1}')),
      storeInboxRow(huge),
      storeInboxRow(row('{"inbox-writer-next-to-huge":2}')),
    ]);
    const stored = await getDb().webhookDelivery.findUniqueOrThrow({ where: { id: ids[1]! } });
    expect(stored.bodyBytes).toBe(BODY_BYTES_MAX);
    expect(BODY_BYTES_MAX).toBe(2 ** 31 - 1);
    expect(await getDb().webhookDelivery.count({ where: { id: { in: ids } } })).toBe(3);
  });

  it("a refused request declaring 99999999999 bytes is kept for audit, answered 404, not 503", async () => {
    const { receiveWebhook } = await import("@/lib/webhooks/receive");
    const result = await receiveWebhook(
      {
        readBody: (max) => readBodyLimited(Readable.from([Buffer.from("x".repeat(5000))]), max),
        headers: new Headers({ "content-length": "99999999999" }),
        sourceIp: "203.0.113.3",
        pathSecret: "wrong",
      },
      { pathSecret: "the-real-secret-0123456789", maxBodyBytes: 65_536 },
    );
    expect(result).toMatchObject({ httpStatus: 404, outcome: "rejected" });
    const stored = await getDb().webhookDelivery.findUniqueOrThrow({ where: { id: result.deliveryId } });
    expect(stored).toMatchObject({
      bodyBytes: BODY_BYTES_MAX,
      outcomeCode: "wrongPathSecret",
      outcomeArgs: { cut: { kept: 4096, total: 99_999_999_999, totalKind: "declared" } },
    });
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
