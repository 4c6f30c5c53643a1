// Scale-out under faults, with real processes and real kills: two web processes (scripts/server.ts in its
// ingest-only mode), two workers (scripts/worker.ts), the sandbox and two creator processes (the web tier's
// creation path) as separate OS processes on one PostgreSQL. 2,000 operations (a quarter pay-outs) are
// created while the sandbox duplicates (×3) and reorders webhooks, fails 20% of API calls with 5xx and drops
// 30% of creation answers after committing them; a proxy in front of the web processes fails 20% of
// deliveries. Midway one worker, one web process and its creator are killed with SIGKILL and replaced.
//
// Why the web processes run without Next.js: a `next build` inside the test would cost minutes on CI's two
// cores. Pay-outs staff create in the console go through a server action that calls createOnce; the
// creator processes call the same function with the same per-operation webhook URL (alternating between
// the two web processes), so what is exercised across process deaths is the same code path.
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { createWriteStream } from "node:fs";
import { mkdtemp, readFile } from "node:fs/promises";
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { createPlatformClient, type PlatformClient } from "@/lib/platform/client";
import { runReconciliation } from "@/lib/reconcile/run";
import { freePort } from "../../../scripts/lib/embedded-postgres";
import {
  allFinalOnPlatform,
  allPlatformOperations,
  eventsMissingFromInbox,
  intentsWithoutExactlyOneOperation,
  refusedOrFailedDeliveries,
  statusRegressions,
} from "../../support/chaos-checks";
import { isolateDatabase } from "../../support/database";
import { InMemoryRecorder } from "../../support/in-memory-recorder";
import type { DeliverySummary } from "./processes/sandbox";

// CHAOS_OPERATIONS: a smaller run while working on this file; CI runs the full 2,000.
const OPERATIONS = Number(process.env.CHAOS_OPERATIONS ?? 2_000);
const RECEIVER_FAILURE_RATE = 0.2;
const root = path.resolve(import.meta.dirname, "../../..");
const runId = Date.now().toString(36);

let logDir: string;
let restoreDatabase: () => Promise<void>;
let sandbox: ChildProcess;
let sandboxUrl: string;
let token: string;
let platform: PlatformClient;
let proxy: Server;
let proxyUrl: string;
const webPorts = { a: 0, b: 0 };
const children = new Set<ChildProcess>();

/** Starts a TypeScript entry point as a Node process with the server's conditions; output goes to a log file. */
function startProcess(name: string, script: string, args: string[], env: Record<string, string> = {}) {
  const child = spawn(
    process.execPath,
    ["--conditions=react-server", "--import", "tsx", path.join(root, script), ...args],
    {
      cwd: root,
      env: { ...process.env, ...env, NODE_ENV: "production" },
      stdio: ["ignore", "pipe", "pipe", "ipc"],
    },
  );
  const log = createWriteStream(path.join(logDir, `${name}.log`), { flags: "a" });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  children.add(child);
  child.on("exit", () => children.delete(child));
  return child;
}

// The webhook endpoint wants its secret path segment (lib/webhooks/path-secret.ts): the same for every process.
const PATH_SECRET = "multi-process-chaos-path-secret-0123";

function appEnv(): Record<string, string> {
  return {
    WEBHOOK_PATH_SECRET: PATH_SECRET,
    DATABASE_URL: process.env.DATABASE_URL!,
    DATABASE_POOL_SIZE: "8",
    PLATFORM_BASE_URL: sandboxUrl,
    PLATFORM_TOKEN: token,
    PLATFORM_TIMEOUT_MS: "5000",
    AUTH_SECRET: "multi-process-chaos-secret-0123456789abcdef",
    LOG_LEVEL: "warn",
    // No load balancer probes these web processes: SIGTERM closes the listener at once.
    SHUTDOWN_GRACE_MS: "0",
  };
}

async function waitFor(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 600_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what} (logs in ${logDir})`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

function startWorker(name: string) {
  const child = startProcess(name, "scripts/worker.ts", [], appEnv());
  return child;
}

function startCreator(name: "a" | "b", progress: { done: number; finished: boolean }) {
  const indices = Array.from({ length: OPERATIONS }, (_, i) => i).filter(
    (i) => (i % 2 === 0) === (name === "a"),
  );
  const share = {
    indices,
    runId,
    webhookUrl: `${proxyUrl}/${name}/api/webhooks/platform/${PATH_SECRET}`,
    concurrency: 4,
  };
  const child = startProcess(
    `creator-${name}`,
    "tests/integration/chaos/processes/creator.ts",
    [JSON.stringify(share)],
    appEnv(),
  );
  progress.done = 0;
  progress.finished = false;
  child.on("message", (m: { done: number; finished?: boolean }) => {
    progress.done = m.done;
    if (m.finished) progress.finished = true;
  });
  return child;
}

/** The load balancer in front of the two web processes: /a/... and /b/..., failing 20% of deliveries. */
function startProxy(): Promise<Server> {
  const server = createServer((req, res) => {
    const match = /^\/(a|b)(\/.*)$/.exec(req.url ?? "");
    if (!match || Math.random() < RECEIVER_FAILURE_RATE) {
      req.resume();
      res.writeHead(match ? 500 : 404).end();
      return;
    }
    const upstream = httpRequest(
      {
        host: "127.0.0.1",
        port: webPorts[match[1] as "a" | "b"],
        path: match[2],
        method: req.method,
        headers: req.headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on("error", () => res.headersSent || res.writeHead(502).end());
    req.pipe(upstream);
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

async function sandboxControl(method: string, route: string, body?: unknown) {
  const res = await fetch(`${sandboxUrl}/__sandbox${route}`, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${route}: ${res.status} ${await res.text()}`);
}

async function deliverySummary(): Promise<DeliverySummary> {
  sandbox.send("summary");
  const [message] = (await once(sandbox, "message")) as [{ summary: DeliverySummary }];
  return message.summary;
}

/** SIGTERM and the time until the process exited. */
async function stopGracefully(child: ChildProcess): Promise<number> {
  const started = Date.now();
  if (child.exitCode !== null) return 0;
  const exited = once(child, "exit");
  child.kill("SIGTERM");
  await exited;
  return Date.now() - started;
}

beforeAll(async () => {
  logDir = await mkdtemp(path.join(os.tmpdir(), "paydesk-multi-process-"));
  restoreDatabase = await isolateDatabase();
  sandbox = startProcess("sandbox", "tests/integration/chaos/processes/sandbox.ts", []);
  const [ready] = (await once(sandbox, "message")) as [{ ready: { url: string; token: string } }];
  ({ url: sandboxUrl, token } = ready.ready);
  platform = createPlatformClient({
    baseUrl: sandboxUrl,
    token,
    timeoutMs: 5_000,
    retry: { attempts: 6, baseDelayMs: 10, maxDelayMs: 50 },
    recorder: new InMemoryRecorder(),
  });
  await sandboxControl("PATCH", "/merchants/demo", {
    detailsPoolSize: 100_000,
    fraudRatePerMinute: 1_000_000,
  });
  await sandboxControl("POST", "/merchants/demo/balance", { amount: "100000000", note: "chaos pay-outs" });
  proxy = await startProxy();
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  webPorts.a = await freePort();
  webPorts.b = await freePort();
}, 60_000);

afterAll(async () => {
  for (const child of children) child.kill("SIGKILL");
  await new Promise((r) => proxy?.close(r));
  await restoreDatabase?.();
});

describe("multi-process chaos: separate web and worker processes on one PostgreSQL", () => {
  it(`${OPERATIONS} operations, faults on, a worker and a web process killed with SIGKILL midway`, async () => {
    const started = performance.now();
    const elapsed = () => `${Math.round((performance.now() - started) / 1000)} s`;
    const env = appEnv();
    const web = { a: await startWebWith(env, "a"), b: await startWebWith(env, "b") };
    const workers = [startWorker("worker-1"), startWorker("worker-2")];
    await sandboxControl("PUT", "/faults", {
      errorRate: 0.2,
      errorMode: "http500",
      commitThenDropRate: 0.3,
      webhookDuplicates: 3,
      webhookReorder: true,
      webhookReorderWindowMs: 100,
    });
    const progress = { a: { done: 0, finished: false }, b: { done: 0, finished: false } };
    const creators = { a: startCreator("a", progress.a), b: startCreator("b", progress.b) };

    // midway: SIGKILL one worker, one web process and the creator that was using it; replace all three
    await waitFor("half the operations created", () => progress.a.done + progress.b.done >= OPERATIONS / 2);
    const killedAt = new Date();
    for (const victim of [workers[0]!, workers[1]!, web.a, web.b]) {
      expect(victim.exitCode, `a process died before the kill (logs in ${logDir})`).toBeNull();
    }
    for (const victim of [workers[0]!, web.a, creators.a]) {
      if (victim.exitCode !== null) continue; // the creator may have finished its share already
      const exited = once(victim, "exit");
      victim.kill("SIGKILL");
      await exited;
    }
    console.log(`multi-process chaos: killed worker-1, web-a and creator-a at ${elapsed()}`);
    web.a = await startWebWith(env, "a");
    workers[0] = startWorker("worker-3");
    creators.a = startCreator("a", progress.a);

    await waitFor("every creator finished", () => progress.a.finished && progress.b.finished);
    console.log(`multi-process chaos: ${OPERATIONS} creations done at ${elapsed()}`);
    const ids = new Set(Array.from({ length: OPERATIONS }, (_, i) => `mp-${runId}-${i}`));
    await waitFor("every operation final on the platform", () => allFinalOnPlatform(platform, ids));
    console.log(`multi-process chaos: every operation final on the platform at ${elapsed()}`);
    await waitFor("every webhook delivery settled", async () => (await deliverySummary()).scheduled === 0);
    console.log(`multi-process chaos: deliveries settled at ${elapsed()}`);
    await sandboxControl("DELETE", "/faults");
    const db = getDb();
    await waitFor(
      "the inbox processed",
      async () => (await db.webhookDelivery.count({ where: { outcome: "received" } })) === 0,
    );
    console.log(`multi-process chaos: settled at ${elapsed()}`);

    // graceful shutdown of what is left, within the documented bounds
    const stopTimes = await Promise.all([...workers, web.a, web.b].map(stopGracefully));
    console.log(`multi-process chaos: SIGTERM to exit (ms): ${stopTimes.join(", ")}`);
    expect(Math.max(...stopTimes)).toBeLessThan(25_000);

    // exactly one platform operation per creation intent
    const truth = (await allPlatformOperations(platform)).filter((op) => ids.has(op.idTransactionMerchant));
    expect(intentsWithoutExactlyOneOperation(truth, OPERATIONS)).toEqual([]);
    expect(await db.creationIntent.count({ where: { state: { not: "confirmed" } } })).toBe(0);
    expect(truth.filter((op) => op.typeOperation === "payOut").length).toBe(OPERATIONS / 4);

    // the mirror equals the truth: status, dateUpdated and amounts of every operation
    const mirror = new Map((await db.operation.findMany()).map((op) => [op.id, op]));
    const mismatches = truth.filter((op) => {
      const m = mirror.get(op.id);
      return (
        !m ||
        m.status !== op.status ||
        m.dateUpdated?.getTime() !== op.dateUpdated?.getTime() ||
        m.amount.toFixed() !== op.amount.toFixed() ||
        (m.amountInCurrencyBalance?.toFixed() ?? null) !== (op.amountInCurrencyBalance?.toFixed() ?? null)
      );
    });
    for (const op of mismatches) {
      // What the mirror and the inbox hold for it: what the next look at a failure starts from.
      const m = mirror.get(op.id);
      const deliveries = await db.webhookDelivery.findMany({
        where: { operationId: op.id },
        orderBy: { id: "asc" },
        select: {
          operationStatus: true,
          outcome: true,
          outcomeCode: true,
          receivedAt: true,
          processedAt: true,
        },
      });
      const history = await db.operationStatusChange.findMany({
        where: { operationId: op.id },
        orderBy: { id: "asc" },
      });
      console.log(
        `multi-process chaos: mismatch ${JSON.stringify({
          platform: { status: op.status, dateUpdated: op.dateUpdated, type: op.typeOperation },
          mirror: m && {
            status: m.status,
            dateUpdated: m.dateUpdated,
            lastSource: m.lastSource,
            received: m.snapshotReceivedAt,
          },
          deliveries,
          history: history.map((h) => [
            h.fromStatus,
            h.toStatus,
            h.source,
            h.platformDateUpdated,
            h.recordedAt,
          ]),
        })}`,
      );
    }
    expect(mismatches.map((op) => `${op.id} ${op.status}`)).toEqual([]);

    // zero status regressions in the recorded history
    expect(await statusRegressions()).toEqual([]);

    // zero lost events: every event the platform counts as delivered is in the inbox
    const summary = await deliverySummary();
    expect(summary.failed).toEqual([]);
    expect(await eventsMissingFromInbox(summary.delivered)).toEqual([]);
    expect(await refusedOrFailedDeliveries()).toBe(0);
    console.log(
      `multi-process chaos: ${summary.total} deliveries (${summary.delivered.length} distinct events), inbox ${await db.webhookDelivery.count()} rows`,
    );

    // no advisory lock left held once every process is gone (a killed holder's lock went with its session)
    const [locks] = await db.$queryRawUnsafe<{ n: bigint }[]>(
      `SELECT count(*) AS n FROM pg_locks
         WHERE locktype = 'advisory' AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
    );
    expect(Number(locks?.n)).toBe(0);

    // no pg-boss job stuck active: the only active jobs are the killed worker's, and they expire
    const active = await db.$queryRawUnsafe<{ name: string; started_on: Date; expire_s: number }[]>(
      `SELECT name, started_on, extract(epoch FROM expire_in)::int AS expire_s FROM pgboss.job WHERE state = 'active'`,
    );
    console.log(`multi-process chaos: active pg-boss jobs after the stop: ${JSON.stringify(active)}`);
    for (const job of active) {
      expect(job.started_on.getTime()).toBeLessThanOrEqual(killedAt.getTime());
      expect(job.expire_s).toBeLessThanOrEqual(15 * 60);
    }

    // every reconciliation run completed, or was marked failed as interrupted by the next runner
    await runReconciliation({ kind: "incremental", platform });
    const runs = await db.reconciliationRun.findMany();
    console.log(
      `multi-process chaos: reconciliation runs ${JSON.stringify(runs.map((r) => `${r.status}${r.errorCode ? ` (${r.errorCode}${r.error ? `: ${r.error}` : ""})` : ""}`))}`,
    );
    expect(
      runs.filter(
        (r) => !(r.status === "completed" || (r.status === "failed" && r.errorCode === "interrupted")),
      ),
    ).toEqual([]);
    console.log(`multi-process chaos: done at ${elapsed()}`);
  }, 900_000);
});

async function startWebWith(env: Record<string, string>, name: "a" | "b") {
  const child = startProcess(
    `web-${name}`,
    "scripts/server.ts",
    ["--webhooks-only", "--port", String(webPorts[name]), "--hostname", "127.0.0.1"],
    env,
  );
  await waitFor(`web ${name} ready`, async () => {
    if (child.exitCode !== null)
      throw new Error(`web ${name} exited: ${await readFile(path.join(logDir, `web-${name}.log`), "utf8")}`);
    const res = await fetch(`http://127.0.0.1:${webPorts[name]}/api/health/ready`).catch(() => null);
    return res?.status === 200;
  });
  return child;
}
