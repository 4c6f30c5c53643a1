import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { forgetCachedSettings } from "@/lib/settings/settings";
import { snapshot } from "../../support/operations";
import { startWebhookServer, webhookBody, type WebhookServer } from "../../support/webhooks";

const db = getDb();
let direct: WebhookServer;
let behindProxy: WebhookServer;
let base: string;
let proxied: string;

beforeAll(async () => {
  direct = await startWebhookServer();
  behindProxy = await startWebhookServer({ trustedProxies: ["127.0.0.1/32"] });
  [base, proxied] = [direct.origin, behindProxy.origin];
});

afterAll(async () => {
  await direct.close();
  await behindProxy.close();
});

beforeEach(async () => {
  await db.webhookDelivery.deleteMany();
  await db.setting.deleteMany();
  // These tests are about the server, not the secret path segment (tests/integration/security).
  await db.setting.create({ data: { key: "webhookOpenEndpoint", value: true } });
  forgetCachedSettings();
});

function event() {
  const op = snapshot({ status: "in_progress" });
  return { op, body: webhookBody(op) };
}

const post = (path: string, body: string, headers: Record<string, string> = {}, to = base) =>
  fetch(`${to}${path}`, {
    method: "POST",
    body,
    headers: { "content-type": "application/json", ...headers },
  });

describe("webhook endpoint on the web server, ahead of Next.js", () => {
  it("stores the raw request with the socket's address and answers 200 with the delivery id", async () => {
    const { op, body } = event();
    const response = await post("/api/webhooks/platform", body, { authorization: "Bearer x" });
    expect(response.status).toBe(200);
    const answer = (await response.json()) as { received: boolean; id: string };
    expect(answer.received).toBe(true);
    const row = await db.webhookDelivery.findUniqueOrThrow({ where: { id: BigInt(answer.id) } });
    expect(row).toMatchObject({
      body,
      bodyBytes: Buffer.byteLength(body),
      sourceIp: "127.0.0.1",
      outcome: "received",
      operationId: op.id,
    });
    expect(row.headers).toMatchObject({ "content-type": "application/json", authorization: "[present]" });
  });

  it("takes the right-most X-Forwarded-For entry as the source when the peer is a trusted proxy", async () => {
    await db.setting.create({ data: { key: "webhookAllowedIps", value: ["198.51.100.0/24"] } });
    const { body } = event();
    const allowed = await post(
      "/api/webhooks/platform",
      body,
      { "x-forwarded-for": "203.0.113.9, 198.51.100.7" },
      proxied,
    );
    expect(allowed.status).toBe(200);
    forgetCachedSettings();
    const refused = await post("/api/webhooks/platform", body);
    expect(refused.status).toBe(403);
    const rows = await db.webhookDelivery.findMany({ orderBy: { id: "asc" } });
    expect(rows.map((r) => [r.sourceIp, r.outcome])).toEqual([
      ["198.51.100.7", "received"],
      ["127.0.0.1", "rejected"],
    ]);
  });

  it("passes the secret path segment (URL-decoded, query ignored) to the checks", async () => {
    const { body } = event();
    expect((await post("/api/webhooks/platform/s%2Dcret?x=1", body)).status).toBe(200);
    expect((await post("/api/webhooks/platform/", body)).status).toBe(200);
    expect(await db.webhookDelivery.count()).toBe(2);
  });

  it("leaves every other path to Next.js and stores nothing for it", async () => {
    const { body } = event();
    for (const path of ["/api/webhooks/platformx", "/api/webhooks/platform/a/b", "/api/webhooks", "/"]) {
      const response = await post(path, body);
      expect(response.status, path).toBe(418);
    }
    expect(await db.webhookDelivery.count()).toBe(0);
  });

  it("answers 405 to other methods and stores nothing", async () => {
    const response = await fetch(`${base}/api/webhooks/platform`);
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("POST");
    expect(await db.webhookDelivery.count()).toBe(0);
  });

  it("answers 400 to a malformed body and keeps it for audit, the start of a large one with its size", async () => {
    const malformed = await post("/api/webhooks/platform", '{"status":');
    expect(malformed.status).toBe(400);
    const big = "x".repeat(2_000_000);
    const oversized = await post("/api/webhooks/platform", big);
    expect(oversized.status).toBe(400);
    const rows = await db.webhookDelivery.findMany({ orderBy: { id: "asc" } });
    expect(rows.map((r) => r.outcome)).toEqual(["malformed", "malformed"]);
    expect(rows[0]!.body).toBe('{"status":');
    expect(rows[1]!.bodyBytes).toBe(2_000_000);
    expect(rows[1]!.body).toBe("x".repeat(4096));
  });
});
