import "server-only";
import { z } from "zod";
import { getDb } from "@/lib/db";
import { getEnv } from "@/lib/env";

// Settings an admin can change at run time (stored in the Setting table); defaults come from the
// environment so a fresh install works without visiting the settings page.
export const settingsSchema = z.object({
  webhookAllowedIps: z.array(z.string()),
  webhookBearerToken: z.string().nullable(),
  stuckOperationMinutes: z.number().int().positive(),
  autoApproveBelow: z.string().nullable(),
  twoApprovalsAbove: z.string().nullable(),
});
export type Settings = z.infer<typeof settingsSchema>;
export type SettingKey = keyof Settings;

function defaults(): Settings {
  const env = getEnv();
  return {
    webhookAllowedIps: env.WEBHOOK_ALLOWED_IPS,
    webhookBearerToken: env.WEBHOOK_BEARER_TOKEN ?? null,
    stuckOperationMinutes: 60,
    autoApproveBelow: null,
    twoApprovalsAbove: null,
  };
}

// Read on every webhook: kept for a moment instead of a query per request. A change made through
// saveSetting applies at once in this process and within CACHE_MS in the others.
const CACHE_MS = 2_000;
let cache: { at: number; settings: Settings } | null = null;

export async function getSettings(): Promise<Settings> {
  if (cache && Date.now() - cache.at < CACHE_MS) return cache.settings;
  const rows = await getDb().setting.findMany();
  const stored = Object.fromEntries(rows.map((r) => [r.key, r.value]));
  const settings = settingsSchema.parse({ ...defaults(), ...stored });
  cache = { at: Date.now(), settings };
  return settings;
}

export function forgetCachedSettings(): void {
  cache = null;
}
