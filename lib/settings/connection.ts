import "server-only";
import { getDb } from "@/lib/db";
import { getEnv } from "@/lib/env";
import { translatorFor } from "@/lib/i18n/server";
import { isPlatformError } from "@/lib/platform/errors";
import { getPlatformClient } from "@/lib/platform/from-env";
import { getLog } from "@/lib/log";
import { WEBHOOK_ROUTE } from "@/lib/webhooks/path-secret";

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

/** The origin of the current request from its Host header (and X-Forwarded-Proto behind a proxy). */
export function originFrom(headers: Headers): string | null {
  const host = headers.get("x-forwarded-host") ?? headers.get("host");
  if (!host || !/^[A-Za-z0-9.\-[\]:]+$/.test(host)) return null;
  const proto = headers.get("x-forwarded-proto")?.split(",")[0]?.trim() === "https" ? "https" : "http";
  return `${proto}://${host}`;
}

export type ConnectionTest =
  | { ok: true; latencyMs: number; traceID: string | null; detail: string }
  | { ok: false; latencyMs: number; traceID: string | null; message: string };

const FAILURE_KINDS = ["auth", "transport", "timeout", "protocol", "business"] as const;
const isFailureKind = (kind: string): kind is (typeof FAILURE_KINDS)[number] =>
  (FAILURE_KINDS as readonly string[]).includes(kind);

/**
 * Reads the bank directory (a call that needs the token and moves no money); reports latency and
 * traceID, in the words of the request's language.
 */
export async function testPlatformConnection(actorUserId: string): Promise<ConnectionTest> {
  const t = await translatorFor("settings");
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
