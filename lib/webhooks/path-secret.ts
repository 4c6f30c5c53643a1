import "server-only";
import { randomBytes } from "node:crypto";
import { getDb } from "@/lib/db";
import { getEnv } from "@/lib/env";
import { getLog } from "@/lib/log";
import { getSettings } from "@/lib/settings/settings";

/**
 * The secret path segment of the webhook URL (`/api/webhooks/platform/<secret>`). The platform signs
 * nothing, so without it (or a bearer token, or an IP allowlist) anyone who can reach the server can
 * post webhooks. WEBHOOK_PATH_SECRET sets it. Without that variable, the first start (`npm run dev`,
 * `npm start`; the receiver too, should it run first) generates one (24 random bytes, base64url: 32
 * characters) and keeps it in the Setting table under `webhookPathSecret`, where every instance finds the
 * same one; Settings shows the whole URL to register. Accepting webhooks without it is an explicit
 * choice: the admin's `webhookOpenEndpoint` setting.
 */
export const WEBHOOK_ROUTE = "/api/webhooks/platform";
export const PATH_SECRET_SETTING = "webhookPathSecret";
const SHAPE = /^[A-Za-z0-9_-]{16,200}$/;

// Never changes once generated: read once per process (the receiver's hot path asks on every request).
let cached: string | null = null;

/** WEBHOOK_PATH_SECRET, else the stored secret, generated and stored first when there is none. */
export async function ensureWebhookPathSecret(): Promise<string> {
  const fromEnv = getEnv().WEBHOOK_PATH_SECRET;
  if (fromEnv) return fromEnv;
  if (cached) return cached;
  const db = getDb();
  const generated = () => randomBytes(24).toString("base64url");
  // ON CONFLICT DO NOTHING: instances starting together all end up with the first one's secret.
  const { count } = await db.setting.createMany({
    data: [{ key: PATH_SECRET_SETTING, value: generated() }],
    skipDuplicates: true,
  });
  let stored = (await db.setting.findUniqueOrThrow({ where: { key: PATH_SECRET_SETTING } })).value;
  if (typeof stored !== "string" || !SHAPE.test(stored)) {
    getLog().warn("the stored webhook path secret was malformed: replaced it with a new one");
    stored = generated();
    await db.setting.update({ where: { key: PATH_SECRET_SETTING }, data: { value: stored } });
  } else if (count === 1) {
    getLog().info("generated the webhook's secret path segment: register the URL shown in Settings");
  }
  cached = stored;
  return stored;
}

/** The secret path segment the receiver requires: null when the admin chose an open endpoint. */
export async function requiredWebhookPathSecret(): Promise<string | null> {
  const { webhookOpenEndpoint } = await getSettings();
  return webhookOpenEndpoint ? null : ensureWebhookPathSecret();
}

/** The path to register with the platform: the route, and the secret segment unless the endpoint is open. */
export async function webhookPathToRegister(): Promise<string> {
  const secret = await requiredWebhookPathSecret();
  return secret ? `${WEBHOOK_ROUTE}/${secret}` : WEBHOOK_ROUTE;
}

/** For tests that replace the stored secret. */
export function forgetCachedWebhookPathSecret(): void {
  cached = null;
}
