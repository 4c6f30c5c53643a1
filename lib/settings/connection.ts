import "server-only";
import { getDb } from "@/lib/db";
import { getEnv } from "@/lib/env";
import { isPlatformError } from "@/lib/platform/errors";
import { getPlatformClient } from "@/lib/platform/from-env";
import { getLog } from "@/lib/log";

export type PlatformConnection = {
  baseUrl: string;
  /** The token itself never leaves the server: only whether one is set. */
  tokenConfigured: boolean;
  lastSuccessfulCallAt: string | null;
  lastSuccessfulTraceID: string | null;
};

export async function getPlatformConnection(): Promise<PlatformConnection> {
  const env = getEnv();
  const last = await getDb().apiCall.findFirst({
    where: { envelopeStatus: { in: ["Success", "success"] } },
    orderBy: { startedAt: "desc" },
    select: { startedAt: true, traceID: true },
  });
  return {
    baseUrl: env.PLATFORM_BASE_URL,
    tokenConfigured: env.PLATFORM_TOKEN.length > 0,
    lastSuccessfulCallAt: last?.startedAt.toISOString() ?? null,
    lastSuccessfulTraceID: last?.traceID ?? null,
  };
}

export type ConnectionTest =
  | { ok: true; latencyMs: number; traceID: string | null; detail: string }
  | { ok: false; latencyMs: number; traceID: string | null; message: string };

const failureText: Record<string, string> = {
  auth: "The platform refused the token (AuthError). Check PLATFORM_TOKEN.",
  transport: "The platform could not be reached (network error or HTTP 5xx).",
  timeout: "The platform did not answer in time.",
  protocol: "The platform answered with something that is not its API envelope. Check PLATFORM_BASE_URL.",
  business: "The platform refused the request.",
};

/** Reads the bank directory (a call that needs the token and moves no money); reports latency and traceID. */
export async function testPlatformConnection(actorUserId: string): Promise<ConnectionTest> {
  const started = performance.now();
  const latency = () => Math.round(performance.now() - started);
  try {
    const { banks, traceID } = await getPlatformClient().getBanks({ actorUserId });
    return { ok: true, latencyMs: latency(), traceID, detail: `bank directory read: ${banks.length} banks` };
  } catch (error) {
    if (!isPlatformError(error)) {
      getLog().error({ err: error }, "connection test failed");
      return { ok: false, latencyMs: latency(), traceID: null, message: "The test could not run." };
    }
    getLog().warn({ err: error, traceID: error.traceID }, "connection test failed");
    return {
      ok: false,
      latencyMs: latency(),
      traceID: error.traceID,
      message: failureText[error.kind] ?? "The call failed.",
    };
  }
}
