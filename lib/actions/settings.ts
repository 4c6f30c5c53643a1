"use server";
import { z } from "zod";
import { authorizedAction, stepUpAction } from "@/lib/auth/action";
import { requestPreferences } from "@/lib/auth/request-preferences";
import { testPlatformConnection } from "@/lib/settings/connection";
import { saveSetting, settingKeySchema } from "@/lib/settings/settings";

// The value is validated per key by saveSetting (it knows each key's rules).
const saveInput = z.object({ key: settingKeySchema, value: z.unknown() }).strict();
const noInput = z.object({}).strict().optional();

/** Saves one setting (settings.manage); audited; the webhook bearer token is never sent back. */
export const saveSettingAction = stepUpAction("settings.manage", saveInput, async (input, { actor }) =>
  saveSetting(actor, input.key, input.value, (await requestPreferences()).locale),
);

/** Reads the platform's bank directory with the configured token; returns latency and traceID. */
export const testConnectionAction = authorizedAction("settings.manage", noInput, async (_input, { user }) =>
  testPlatformConnection(user.id, (await requestPreferences()).locale),
);
