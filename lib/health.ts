import "server-only";
import { getDb } from "@/lib/db";
import { describeDatabaseProblem } from "@/lib/db-check";
import { getEnv } from "@/lib/env";
import { getLog } from "@/lib/log";
import { serializeError } from "@/lib/log-error";
import type { PlatformClient } from "@/lib/platform/client";
import { getPlatformClient } from "@/lib/platform/from-env";
import { sharedResult } from "@/lib/shared-result";

// Thresholds beyond which a part is reported failing.
const WEBHOOK_LAG_LIMIT_MS = 5 * 60_000;
const RECONCILIATION_AGE_LIMIT_MS = 2 * 60 * 60_000;
// The platform part is judged on the latest call; older than this, the check makes a cheap one itself.
const PLATFORM_PROBE_AFTER_MS = 60_000;

/** "unknown" is not ok: a part nobody has been able to check is not known to work. */
export type HealthState = "ok" | "failing" | "unknown";
export type HealthPart = { ok: boolean; state: HealthState; detail: string };
export type Health = { ok: boolean; failing: string[]; parts: Record<string, HealthPart> };

export type HealthOptions = {
  now?: Date;
  /** Where the probe call goes; null = never probe (the platform part may then stay unknown). */
  platform?: Pick<PlatformClient, "getBanks"> | null;
};

const part = (state: HealthState, detail: string): HealthPart => ({ ok: state === "ok", state, detail });
const age = (from: Date, now: Date) => `${Math.round((now.getTime() - from.getTime()) / 1000)} s ago`;

// One check a second answers every request: the database part opens a connection of its own.
export const currentHealth = sharedResult(() => checkHealth(), 1_000);

/**
 * Database, platform reachability, webhook queue lag and the last complete reconciliation. Never throws
 * for a part: a part whose check threw (a missing table, a connection cut after SELECT 1 answered) is
 * failing, with the error as its detail, so the route answers 503 naming it and the answer is shared
 * like any other (a check that threw would not be, and every request would query again). The errors
 * are logged once per check.
 */
export async function checkHealth(options: HealthOptions = {}): Promise<Health> {
  const now = options.now ?? new Date();
  const databaseProblem = await describeDatabaseProblem(getEnv().DATABASE_URL, 2000);
  const parts: Record<string, HealthPart> = {
    database: databaseProblem ? part("failing", databaseProblem) : part("ok", "answers"),
  };
  if (!databaseProblem) {
    const errors: Record<string, unknown> = {};
    const guarded = async (name: string, check: () => Promise<HealthPart>): Promise<HealthPart> => {
      try {
        return await check();
      } catch (error) {
        errors[name] = error;
        return part("failing", `could not be checked: ${errorLine(error)}`);
      }
    };
    const [platformPart, webhookQueue, reconciliation] = await Promise.all([
      guarded("platform", () =>
        checkPlatform(now, options.platform === undefined ? getPlatformClient() : options.platform),
      ),
      guarded("webhookQueue", () => checkWebhookQueue(now)),
      guarded("reconciliation", () => checkReconciliation(now)),
    ]);
    Object.assign(parts, { platform: platformPart, webhookQueue, reconciliation });
    if (Object.keys(errors).length > 0)
      getLog().error(
        { errors: Object.fromEntries(Object.entries(errors).map(([name, e]) => [name, serializeError(e)])) },
        "health check: parts could not be checked",
      );
  }
  const failing = Object.entries(parts)
    .filter(([, p]) => !p.ok)
    .map(([name]) => name);
  return { ok: failing.length === 0, failing, parts };
}

/** One line of an error for a part's detail (Prisma's messages span lines): its code, then its message. */
function errorLine(error: unknown): string {
  const e: { code?: unknown; message?: unknown } = typeof error === "object" && error !== null ? error : {};
  const message = typeof e.message === "string" ? e.message : String(error);
  const line = `${typeof e.code === "string" ? `${e.code}: ` : ""}${message}`.replace(/\s+/g, " ").trim();
  return line.length > 300 ? `${line.slice(0, 299)}…` : line;
}

type LastCall = {
  startedAt: Date;
  httpStatus: number | null;
  error: string | null;
  envelopeStatus: string | null;
};

function latestCall(): Promise<LastCall | null> {
  return getDb().apiCall.findFirst({
    orderBy: { startedAt: "desc" },
    select: { startedAt: true, httpStatus: true, error: true, envelopeStatus: true },
  });
}

// One probe at a time per process, however many health checks arrive while it runs.
let probeInFlight: Promise<void> | null = null;

async function probe(platform: Pick<PlatformClient, "getBanks">): Promise<void> {
  probeInFlight ??= platform
    .getBanks()
    .then(
      () => undefined,
      // The failure is recorded in ApiCall by the client, which is what the part is judged on.
      () => undefined,
    )
    .finally(() => {
      probeInFlight = null;
    });
  await probeInFlight;
}

async function checkPlatform(
  now: Date,
  platform: Pick<PlatformClient, "getBanks"> | null,
): Promise<HealthPart> {
  let last = await latestCall();
  if (platform && (!last || now.getTime() - last.startedAt.getTime() > PLATFORM_PROBE_AFTER_MS)) {
    await probe(platform);
    last = await latestCall();
  }
  if (!last) return part("unknown", "no call to the platform yet");
  const when = `last call ${age(last.startedAt, now)}`;
  if (last.error) return part("failing", `${when} failed: ${last.error}`);
  if ((last.httpStatus ?? 0) >= 500) return part("failing", `${when} answered HTTP ${last.httpStatus}`);
  if (/^(auth|access)error$/i.test(last.envelopeStatus ?? ""))
    return part("failing", `${when}: the platform refused the token (${last.envelopeStatus})`);
  return part("ok", `${when} answered`);
}

async function checkWebhookQueue(now: Date): Promise<HealthPart> {
  const oldestWaiting = await getDb().webhookDelivery.findFirst({
    where: { outcome: "received" },
    orderBy: { id: "asc" },
    select: { receivedAt: true },
  });
  if (!oldestWaiting) return part("ok", "empty");
  const lag = now.getTime() - oldestWaiting.receivedAt.getTime();
  return part(
    lag < WEBHOOK_LAG_LIMIT_MS ? "ok" : "failing",
    `oldest unprocessed webhook ${age(oldestWaiting.receivedAt, now)}`,
  );
}

async function checkReconciliation(now: Date): Promise<HealthPart> {
  const lastRun = await getDb().reconciliationRun.findFirst({
    where: { status: "completed" },
    orderBy: { finishedAt: "desc" },
    select: { finishedAt: true },
  });
  if (!lastRun?.finishedAt) return part("failing", "no complete run yet");
  const runAge = now.getTime() - lastRun.finishedAt.getTime();
  return part(
    runAge < RECONCILIATION_AGE_LIMIT_MS ? "ok" : "failing",
    `last complete run ${age(lastRun.finishedAt, now)}`,
  );
}
