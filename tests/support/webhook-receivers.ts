// For tests of the webhook's source checks: two receivers on a database of their own, one reached
// directly and one behind a trusted proxy on 127.0.0.1 (there X-Forwarded-For names the source). Before
// each test the inbox and the settings are emptied and the open endpoint allows `allowedIps`: these
// tests are about the source IP and refused bodies, not the secret path segment.
import { afterAll, beforeAll, beforeEach } from "vitest";
import { getDb } from "@/lib/db";
import { forgetCachedSettings } from "@/lib/settings/settings";
import type { RefusedLimit } from "@/lib/webhooks/refused-limit";
import { isolateDatabase } from "./database";
import { startWebhookServer, type WebhookServer } from "./webhooks";

export type SourceCheckedReceivers = { direct: string; behindProxy: string };

export function sourceCheckedReceivers(options: {
  allowedIps: string[];
  refusedLimit?: RefusedLimit;
}): SourceCheckedReceivers {
  const urls: SourceCheckedReceivers = { direct: "", behindProxy: "" };
  const servers: WebhookServer[] = [];
  let restore: () => Promise<void>;
  const receiver = async (trustedProxies: string[]) => {
    const server = await startWebhookServer({ trustedProxies, refusedLimit: options.refusedLimit });
    servers.push(server);
    return `${server.origin}/api/webhooks/platform`;
  };
  beforeAll(async () => {
    restore = await isolateDatabase();
    urls.direct = await receiver([]);
    urls.behindProxy = await receiver(["127.0.0.1/32"]);
  });
  afterAll(async () => {
    for (const server of servers) await server.close();
    await restore();
  });
  beforeEach(async () => {
    const db = getDb();
    await db.webhookDelivery.deleteMany();
    await db.setting.deleteMany();
    await db.setting.create({ data: { key: "webhookOpenEndpoint", value: true } });
    await db.setting.create({ data: { key: "webhookAllowedIps", value: options.allowedIps } });
    forgetCachedSettings();
  });
  return urls;
}
