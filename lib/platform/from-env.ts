import "server-only";
import { getEnv } from "@/lib/env";
import { createPlatformClient, type PlatformClient } from "./client";
import { getLog } from "@/lib/log";
import type { ApiCallRecorder } from "./recorder";
import { databaseRecorder } from "./record-to-db";

const globalForPlatform = globalThis as unknown as { paydeskPlatform?: PlatformClient };

/** Each call is logged (traceID, path, outcome, latency; never the token or a body) and stored in ApiCall. */
const loggingRecorder: ApiCallRecorder = {
  async record(call) {
    getLog().info(
      {
        platformCall: {
          method: call.method,
          path: call.path,
          httpStatus: call.httpStatus,
          envelopeStatus: call.envelopeStatus,
          codeError: call.codeError,
          traceID: call.traceID,
          latencyMs: Math.round(call.latencyMs),
          attempt: call.attempt,
          error: call.error,
        },
      },
      "platform call",
    );
    await databaseRecorder.record(call);
  },
};

/**
 * The platform client of this process: token from PLATFORM_TOKEN, every call recorded in ApiCall; a
 * GET /balance list read before the ledger knows its currency is chosen by PLATFORM_BALANCE_CURRENCY.
 */
export function getPlatformClient(): PlatformClient {
  if (!globalForPlatform.paydeskPlatform) {
    const env = getEnv();
    globalForPlatform.paydeskPlatform = createPlatformClient({
      baseUrl: env.PLATFORM_BASE_URL,
      token: env.PLATFORM_TOKEN,
      timeoutMs: env.PLATFORM_TIMEOUT_MS,
      balanceCurrency: env.PLATFORM_BALANCE_CURRENCY,
      recorder: loggingRecorder,
      onRecorderError: (error) => getLog().error({ err: error }, "could not record a platform call"),
    });
  }
  return globalForPlatform.paydeskPlatform;
}
