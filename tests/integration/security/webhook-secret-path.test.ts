// Security review, finding 3: with the default settings nothing protected the webhook endpoint. A fresh
// start now generates a secret path segment and keeps it in the database; accepting webhooks without it
// is an admin's explicit, audited choice, and Settings warns while nothing protects the endpoint.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { forgetCachedSettings, saveSetting } from "@/lib/settings/settings";
import { isolateDatabase } from "../../support/database";
import { createStaff } from "../../support/mirror";
import { outcomeNoteIn } from "../../support/notes";
import { startWebhookServer, webhookBody, type WebhookServer } from "../../support/webhooks";

let restore: () => Promise<void>;
let server: WebhookServer;
const db = () => getDb();

beforeAll(async () => {
  restore = await isolateDatabase(); // a fresh database: no setting, no secret yet
  forgetCachedSettings();
  server = await startWebhookServer();
});
afterAll(async () => {
  await server?.close();
  await restore?.();
});

const post = (path: string) =>
  fetch(`${server.origin}${path}`, {
    method: "POST",
    body: webhookBody(),
    headers: { "content-type": "application/json" },
  });

async function admin() {
  const user = await createStaff("admin");
  return { id: user.id, email: user.email, ip: "198.51.100.9" };
}

describe("the webhook's secret path segment", () => {
  it("is required on a fresh install: a request without it is answered 404 and stored as rejected", async () => {
    const response = await post("/api/webhooks/platform");
    expect(response.status).toBe(404);
    const row = await db().webhookDelivery.findFirstOrThrow({ orderBy: { id: "desc" } });
    expect(row).toMatchObject({ outcome: "rejected", outcomeCode: "wrongPathSecret", outcomeDetail: null });
    expect(await outcomeNoteIn("en", row)).toBe("Wrong or missing secret path segment.");
    expect(await outcomeNoteIn("ru", row)).toBe("Неверный или отсутствующий секретный сегмент пути.");
    expect((await post("/api/webhooks/platform/not-the-secret-0123456789")).status).toBe(404);
  });

  it("is generated at start (what npm start and npm run dev call), kept in the database and used by the receiver", async () => {
    const { ensureWebhookPathSecret, forgetCachedWebhookPathSecret, webhookPathToRegister } =
      await import("@/lib/webhooks/path-secret");
    const secret = await ensureWebhookPathSecret();
    expect(secret).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const stored = await db().setting.findUniqueOrThrow({ where: { key: "webhookPathSecret" } });
    expect(stored.value).toBe(secret);
    // a restart finds the same one; it is not generated again
    forgetCachedWebhookPathSecret();
    expect(await ensureWebhookPathSecret()).toBe(secret);
    expect(await webhookPathToRegister()).toBe(`/api/webhooks/platform/${secret}`);
    expect((await post(`/api/webhooks/platform/${secret}`)).status).toBe(200);
    expect((await post("/api/webhooks/platform")).status).toBe(404);
  });

  it("is generated once when several instances start together", async () => {
    const { ensureWebhookPathSecret, forgetCachedWebhookPathSecret } =
      await import("@/lib/webhooks/path-secret");
    await db().setting.deleteMany({ where: { key: "webhookPathSecret" } });
    forgetCachedWebhookPathSecret();
    const secrets = await Promise.all(
      Array.from({ length: 6 }, async () => {
        forgetCachedWebhookPathSecret();
        return ensureWebhookPathSecret();
      }),
    );
    expect(new Set(secrets).size).toBe(1);
    expect((await db().setting.findUniqueOrThrow({ where: { key: "webhookPathSecret" } })).value).toBe(
      secrets[0],
    );
  });
});

describe("an open endpoint is an explicit choice, and Settings says when nothing protects the endpoint", () => {
  it("reports `unprotected` once the admin chose open and neither a bearer token nor an allowlist is set", async () => {
    const { webhookEndpointView } = await import("@/lib/webhooks/endpoint");
    const { ensureWebhookPathSecret } = await import("@/lib/webhooks/path-secret");
    const actor = await admin();
    const secret = await ensureWebhookPathSecret();

    expect(await webhookEndpointView("http://paydesk.test:3000")).toEqual({
      url: `http://paydesk.test:3000/api/webhooks/platform/${secret}`,
      pathSecret: "generated",
      bearerToken: false,
      allowlist: false,
      unprotected: false,
    });

    expect(await saveSetting(actor, "webhookOpenEndpoint", "yes")).toMatchObject({ ok: false });
    expect(await saveSetting(actor, "webhookOpenEndpoint", true)).toMatchObject({ ok: true, value: true });
    const audit = await db().auditLog.findFirstOrThrow({
      where: { action: "settings.update", targetId: "webhookOpenEndpoint" },
    });
    expect(audit).toMatchObject({
      actorUserId: actor.id,
      before: { webhookOpenEndpoint: false },
      after: { webhookOpenEndpoint: true },
    });
    expect(await webhookEndpointView("http://paydesk.test:3000")).toEqual({
      url: "http://paydesk.test:3000/api/webhooks/platform",
      pathSecret: "open",
      bearerToken: false,
      allowlist: false,
      unprotected: true,
    });
    expect((await post("/api/webhooks/platform")).status).toBe(200);

    await saveSetting(actor, "webhookBearerToken", "bearer-token-0123456789");
    expect(await webhookEndpointView(null)).toMatchObject({
      unprotected: false,
      bearerToken: true,
      url: null,
    });
    await saveSetting(actor, "webhookBearerToken", null);
    await saveSetting(actor, "webhookAllowedIps", ["203.0.113.0/24"]);
    expect(await webhookEndpointView(null)).toMatchObject({ unprotected: false, allowlist: true });
    await saveSetting(actor, "webhookAllowedIps", []);
    expect(await webhookEndpointView(null)).toMatchObject({ unprotected: true });

    await saveSetting(actor, "webhookOpenEndpoint", false);
    expect(await webhookEndpointView(null)).toMatchObject({ pathSecret: "generated", unprotected: false });
    expect((await post("/api/webhooks/platform")).status).toBe(404);
  });
});
