import "server-only";
import { getDb } from "@/lib/db";
import { getEnv } from "@/lib/env";
import { createRateLimit } from "@/lib/http/rate-limit";
import type { Locale } from "@/lib/i18n/locales";
import { translatorIn } from "@/lib/i18n/translate";
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
  | { ok: false; latencyMs: number; traceID: string | null; message: string }
  | { ok: false; code: "rate_limited"; message: string };

export const CONNECTION_TESTS_PER_MINUTE = 6;

/** Per user, per process (see lib/http/rate-limit.ts): each test is a platform call with the merchant's token. */
export const connectionTestRateLimit = createRateLimit({
  limit: CONNECTION_TESTS_PER_MINUTE,
  windowMs: 60_000,
});

const FAILURE_KINDS = ["auth", "transport", "timeout", "protocol", "business"] as const;
const isFailureKind = (kind: string): kind is (typeof FAILURE_KINDS)[number] =>
  (FAILURE_KINDS as readonly string[]).includes(kind);

/**
 * Reads the bank directory (a call that needs the token and moves no money); reports latency and
 * traceID, in the words of the given language (the user's). Past the user's limit, calls nothing.
 */
export async function testPlatformConnection(actorUserId: string, locale: Locale): Promise<ConnectionTest> {
  const t = translatorIn("settings", locale);
  if (!connectionTestRateLimit.take(actorUserId)) {
    return {
      ok: false,
      code: "rate_limited",
      message: t("connection.rateLimited", { limit: CONNECTION_TESTS_PER_MINUTE }),
    };
  }
  const started = performance.now();
  const latency = () => Math.round(performance.now() - started);
  try {
    const { banks, traceID } = await getPlatformClient().getBanks({ actorUserId });
    const detail = t("connection.banksRead", { count: banks.length });
    return { ok: true, latencyMs: latency(), traceID, detail };
  } catch (error) {
    if (!isPlatformError(error)) {
      getLog().error({ err: error }, "connection test failed");
      return { ok: false, latencyMs: latency(), traceID: null, message: t("connection.couldNotRun") };
    }
    getLog().warn({ err: error, traceID: error.traceID }, "connection test failed");
    return {
      ok: false,
      latencyMs: latency(),
      traceID: error.traceID,
      message: isFailureKind(error.kind)
        ? t(`connection.failures.${error.kind}`)
        : t("connection.callFailed"),
    };
  }
}
