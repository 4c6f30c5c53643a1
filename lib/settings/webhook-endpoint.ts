import "server-only";
import { getEnv } from "@/lib/env";
import { webhookUrlToRegister } from "@/lib/settings/connection";
import { getSettings } from "@/lib/settings/settings";
import { requiredWebhookPathSecret } from "@/lib/webhooks/path-secret";

export type WebhookEndpointView = {
  /** The whole URL to register with the platform; null without PUBLIC_BASE_URL or a request origin. */
  url: string | null;
  /** Where the required secret path segment comes from; `open` when the admin chose to require none. */
  pathSecret: "environment" | "generated" | "open";
  bearerToken: boolean;
  allowlist: boolean;
  /** Nothing protects the endpoint: no secret path segment, no bearer token, no IP allowlist. */
  unprotected: boolean;
};

/** What the Settings page shows about the webhook endpoint: the URL to register and what guards it. */
export async function webhookEndpointView(origin: string | null): Promise<WebhookEndpointView> {
  const [settings, secret] = await Promise.all([getSettings(), requiredWebhookPathSecret()]);
  const bearerToken = settings.webhookBearerToken !== null;
  const allowlist = settings.webhookAllowedIps.length > 0;
  return {
    url: webhookUrlToRegister(origin, secret).url,
    pathSecret: secret === null ? "open" : getEnv().WEBHOOK_PATH_SECRET ? "environment" : "generated",
    bearerToken,
    allowlist,
    unprotected: secret === null && !bearerToken && !allowlist,
  };
}
