import "server-only";
import { getEnv } from "@/lib/env";
import { getSettings } from "@/lib/settings/settings";
import { WEBHOOK_ROUTE, requiredWebhookPathSecret } from "@/lib/webhooks/path-secret";

/**
 * The URL to register in the platform's personal account: PUBLIC_BASE_URL (or the origin the console is
 * served from) + the webhook route + the secret path segment when one is required. An admin has to
 * copy the whole URL, so the segment is shown to admins (settings.manage) here and nowhere else.
 */
export function webhookUrlToRegister(
  origin: string | null,
  pathSecret: string | null = null,
): { url: string | null; hasPathSecret: boolean } {
  const base = (getEnv().PUBLIC_BASE_URL ?? origin)?.replace(/\/+$/, "") ?? null;
  return {
    url: base ? `${base}${WEBHOOK_ROUTE}${pathSecret ? `/${pathSecret}` : ""}` : null,
    hasPathSecret: Boolean(pathSecret),
  };
}

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
