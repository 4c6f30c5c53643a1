"use server";
import { z } from "zod";
import { actorFor } from "@/lib/audit/actor";
import { authorizedAction } from "@/lib/auth/action";
import { testPlatformConnection } from "@/lib/settings/connection";
import { saveSetting, settingKeySchema } from "@/lib/settings/settings";

// The value is validated per key by saveSetting (it knows each key's rules).
const saveInput = z.object({ key: settingKeySchema, value: z.unknown() }).strict();
const noInput = z.object({}).strict().optional();

const save = authorizedAction("settings.manage", saveInput, async (input, user) =>
  saveSetting(await actorFor(user), input.key, input.value),
);

const test = authorizedAction("settings.manage", noInput, (_input, user) => testPlatformConnection(user.id));

/** Saves one setting (settings.manage); audited; the webhook bearer token is never sent back. */
export async function saveSettingAction(input: unknown) {
  return save(input);
}

/** Reads the platform's bank directory with the configured token; returns latency and traceID. */
export async function testConnectionAction(input?: unknown) {
  return test(input);
}
