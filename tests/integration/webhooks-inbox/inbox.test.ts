// Webhook inbox: list with outcome filter and paging, raw body, and "process again" (audited; rejected
// and malformed deliveries stay as they are). On a database of its own: the receiver tests empty the inbox.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { getDb } from "@/lib/db";
import type { PlatformClient } from "@/lib/platform/client";
import type { Operation } from "@/lib/platform/schemas";
import { getDelivery, listDeliveries } from "@/lib/webhooks/inbox";
import { processPendingWebhooks } from "@/lib/webhooks/process";
import { receiveWebhook } from "@/lib/webhooks/receive";
import { isolateDatabase } from "../../support/database";
import { createStaff } from "../../support/mirror";
import { snapshot } from "../../support/operations";
import { webhookBody } from "../../support/webhooks";

const session = vi.hoisted(() => ({ current: null as null | { userId: string; sessionVersion: number } }));
vi.mock("@/lib/auth/config", () => ({ auth: async () => session.current }));
vi.mock("next/headers", () => ({
  headers: async () => new Headers({ "x-paydesk-client-ip": "198.51.100.20" }),
}));

const { reprocessWebhookAction } = await import("@/lib/actions/webhooks");

let restore: () => Promise<void>;
let supportId: string;
beforeAll(async () => {
  restore = await isolateDatabase();
  const support = await createStaff("support");
  supportId = support.id;
  session.current = { userId: support.id, sessionVersion: 0 };
});
afterAll(() => restore());

const deliver = (body: string) =>
  receiveWebhook(
    {
      body,
      bodyBytes: Buffer.byteLength(body),
      headers: new Headers(),
      sourceIp: "203.0.113.10",
      pathSecret: null,
    },
    { pathSecret: null, maxBodyBytes: 65_536 },
  );

function reading(truth: Map<string, Operation | "fail">): Pick<PlatformClient, "getOperation"> {
  return {
    async getOperation(id: string) {
      const v = truth.get(id);
      if (v === "fail" || v === undefined) throw new Error("connection reset");
      return { operation: v, traceID: `readback-${randomUUID()}` };
    },
  };
}

describe("webhook inbox", () => {
  it("lists deliveries newest first with the outcome filter, pages by id, shows the raw body", async () => {
    const ops = Array.from({ length: 55 }, () => snapshot({ status: "in_progress" }));
    for (const op of ops) await deliver(webhookBody(op));
    const malformed = await deliver("{not json");
    // operations the mirror does not have yet: applied once the platform's read-back confirms them
    await processPendingWebhooks(reading(new Map(ops.map((op) => [op.id, op]))), 500);

    const first = await listDeliveries({});
    expect(first.rows).toHaveLength(50);
    expect(first.rows[0]!.id).toBe(malformed.deliveryId.toString());
    expect(first.nextBefore).not.toBeNull();
    const second = await listDeliveries({ before: BigInt(first.nextBefore!) });
    expect(second.rows).toHaveLength(6);
    expect(second.nextBefore).toBeNull();
    expect(new Set([...first.rows, ...second.rows].map((r) => r.id)).size).toBe(56);

    expect((await listDeliveries({ outcome: "malformed" })).rows.map((r) => r.id)).toEqual([
      malformed.deliveryId.toString(),
    ]);
    expect((await listDeliveries({ outcome: "applied" })).rows).toHaveLength(50);

    const detail = await getDelivery(malformed.deliveryId);
    expect(detail).toMatchObject({ body: "{not json", outcome: "malformed", canReprocess: false });
  });

  it("process again: a failed delivery is decided again and the change is audited", async () => {
    const op = snapshot({ status: "success" });
    const truth = new Map<string, Operation | "fail">([[op.id, "fail"]]);
    const { deliveryId } = await deliver(webhookBody(op));
    // the read-back keeps failing: mark it failed as the worker would after its attempts
    await processPendingWebhooks(reading(truth));
    await getDb().webhookDelivery.update({
      where: { id: deliveryId },
      data: { outcome: "failed", claimedUntil: null },
    });

    const result = await reprocessWebhookAction({ id: deliveryId.toString() });
    expect(result).toEqual({ ok: true, id: deliveryId.toString(), previousOutcome: "failed" });
    const queued = await getDb().webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId } });
    expect(queued).toMatchObject({
      outcome: "received",
      claimedUntil: null,
      processingAttempts: 0,
      processedAt: null,
    });
    const entry = await getDb().auditLog.findFirstOrThrow({
      where: { action: "webhook.reprocess", targetId: deliveryId.toString() },
    });
    expect(entry).toMatchObject({
      actorUserId: supportId,
      ip: "198.51.100.20",
      before: { outcome: "failed" },
      after: { outcome: "received" },
    });

    // twice in a row: the second is refused (already waiting), nothing more audited
    expect(await reprocessWebhookAction({ id: deliveryId.toString() })).toMatchObject({
      ok: false,
      code: "not_allowed",
    });

    truth.set(op.id, op);
    await processPendingWebhooks(reading(truth));
    const decided = await getDb().webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId } });
    expect(decided.outcome).toBe("applied");
    expect(decided.readBackTraceID).toMatch(/^readback-/);
  });

  it("a rejected or malformed delivery stays as it is", async () => {
    const malformed = await deliver("[]");
    const rejected = await getDb().webhookDelivery.create({
      data: { headers: {}, body: "{}", bodyBytes: 2, outcome: "rejected", outcomeDetail: "not in allowlist" },
    });
    for (const id of [malformed.deliveryId, rejected.id]) {
      const before = await getDb().webhookDelivery.findUniqueOrThrow({ where: { id } });
      expect(await reprocessWebhookAction({ id: id.toString() })).toMatchObject({
        ok: false,
        code: "not_allowed",
      });
      expect(await getDb().webhookDelivery.findUniqueOrThrow({ where: { id } })).toEqual(before);
    }
  });

  it.each([
    ["unknown id", { id: "999999999" }, "not_found"],
    ["empty", { id: "" }, "invalid"],
    ["negative", { id: "-1" }, "invalid"],
    ["decimal", { id: "1.5" }, "invalid"],
    ["exponent", { id: "1e3" }, "invalid"],
    ["beyond BIGINT", { id: "9999999999999999999" }, "invalid"],
    ["number instead of text", { id: 5 }, "invalid"],
    ["1 MB", { id: "1".repeat(1_048_576) }, "invalid"],
    ["extra field", { id: "1", outcome: "received" }, "invalid"],
    ["null", null, "invalid"],
  ])("process again with %s is refused (%s)", async (_name, input, code) => {
    const audits = await getDb().auditLog.count();
    const result = await reprocessWebhookAction(input);
    expect(result).toMatchObject({ ok: false, code });
    if (!result.ok) expect(result.message).toMatch(/\w/);
    expect(await getDb().auditLog.count()).toBe(audits);
  });
});
