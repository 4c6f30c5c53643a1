import "server-only";
import { getEnv } from "@/lib/env";
import { createPlatformClient, type PlatformClient } from "./client";
import { databaseRecorder } from "./record-to-db";

const globalForPlatform = globalThis as unknown as { paydeskPlatform?: PlatformClient };

/** The platform client of this process: token from PLATFORM_TOKEN, every call recorded in ApiCall. */
export function getPlatformClient(): PlatformClient {
  if (!globalForPlatform.paydeskPlatform) {
    const env = getEnv();
    globalForPlatform.paydeskPlatform = createPlatformClient({
      baseUrl: env.PLATFORM_BASE_URL,
      token: env.PLATFORM_TOKEN,
      timeoutMs: env.PLATFORM_TIMEOUT_MS,
      recorder: databaseRecorder,
    });
  }
  return globalForPlatform.paydeskPlatform;
}
