// The webhook endpoint exists twice: the node:http fast path of scripts/server.ts and the Next.js route
// in app/ (for hosts that run Next.js alone). Both must give the same answer and store the same row.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { POST as appRoute } from "@/app/api/webhooks/platform/[[...secret]]/route";
import { getDb } from "@/lib/db";
import { forgetCachedSettings } from "@/lib/settings/settings";
import { ensureWebhookPathSecret, forgetCachedWebhookPathSecret } from "@/lib/webhooks/path-secret";
import { isolateDatabase } from "../../support/database";
import { startWebhookServer, webhookBody, type WebhookServer } from "../../support/webhooks";

let restoreDatabase: () => Promise<void>;
let server: WebhookServer;
let secret: string;

beforeAll(async () => {
  restoreDatabase = await isolateDatabase();
  server = await startWebhookServer();
});
afterAll(async () => {
  await server.close();
  await restoreDatabase();
});
beforeEach(async () => {
  await getDb().webhookDelivery.deleteMany();
  await getDb().setting.deleteMany();
  forgetCachedSettings();
  forgetCachedWebhookPathSecret();
  secret = await ensureWebhookPathSecret();
});

type Outcome = { status: number; received: unknown; row: Record<string, unknown> | null };

async function outcomeOf(response: Response): Promise<Outcome> {
  const answer = (await response.json()) as { received?: boolean; id?: string };
  const row = answer.id
    ? await getDb().webhookDelivery.findUnique({
        where: { id: BigInt(answer.id) },
        select: { body: true, bodyBytes: true, outcome: true, outcomeDetail: true, operationId: true },
      })
    : null;
  return { status: response.status, received: answer.received, row };
}

async function viaFastPath(path: string, body: string): Promise<Outcome> {
  const response = await fetch(`${server.origin}/api/webhooks/platform${path}`, {
    method: "POST",
    body,
    headers: { "content-type": "application/json" },
  });
  return outcomeOf(response);
}

async function viaAppRoute(segments: string[] | undefined, body: string): Promise<Outcome> {
  const request = new Request(`http://app.test/api/webhooks/platform/${(segments ?? []).join("/")}`, {
    method: "POST",
    body,
    headers: { "content-type": "application/json" },
  });
  return outcomeOf(await appRoute(request, { params: Promise.resolve({ secret: segments }) }));
}

describe("the app/ webhook route and the fast path give the same outcome", () => {
  it("a delivery on the secret path: 200, stored whole, queued for processing", async () => {
    const body = webhookBody();
    const fast = await viaFastPath(`/${secret}`, body);
    const app = await viaAppRoute([secret], body);
    expect(fast).toMatchObject({ status: 200, received: true, row: { outcome: "received", body } });
    expect(app).toEqual(fast);
  });

  it("no secret segment, or a wrong one: 404, kept as rejected", async () => {
    const body = webhookBody();
    for (const [path, segments] of [
      ["", undefined],
      ["/not-the-secret-0123456789", ["not-the-secret-0123456789"]],
    ] as const) {
      const fast = await viaFastPath(path, body);
      const app = await viaAppRoute(segments ? [...segments] : undefined, body);
      expect(fast).toMatchObject({ status: 404, received: false, row: { outcome: "rejected" } });
      expect(app).toEqual(fast);
    }
  });

  it("a body that is not a webhook: 400, kept as malformed", async () => {
    const fast = await viaFastPath(`/${secret}`, "{not json");
    const app = await viaAppRoute([secret], "{not json");
    expect(fast).toMatchObject({ status: 400, received: false, row: { outcome: "malformed" } });
    expect(app).toEqual(fast);
  });

  it("a body holding text the database cannot store, or an overlong traceID: 400, kept as malformed", async () => {
    for (const body of [
      webhookBody().replace(/"traceID":"[^"]*"/, '"traceID":"abc\\u0000def"'),
      webhookBody().replace(/"traceID":"[^"]*"/, '"traceID":"t\\udc00"'),
      webhookBody().replace(/"traceID":"[^"]*"/, `"traceID":"${"0123456789abcdef".repeat(400)}"`),
    ]) {
      const fast = await viaFastPath(`/${secret}`, body);
      const app = await viaAppRoute([secret], body);
      expect(fast).toMatchObject({ status: 400, received: false, row: { outcome: "malformed" } });
      expect(app).toEqual(fast);
    }
  });

  it("the app route answers 404 for a path deeper than one secret segment and stores nothing", async () => {
    const app = await viaAppRoute([secret, "extra"], webhookBody());
    expect(app).toEqual({ status: 404, received: undefined, row: null });
    expect(await getDb().webhookDelivery.count()).toBe(0);
  });
});
