// `npm run bench -- processing`: webhook processing, sustained. 500 events/s for 60 s (half of them final
// statuses that need a read-back from the platform) into the production webhook receiver
// (scripts/server.ts, the code `npm start` runs, here with --webhooks-only so no build is needed), with
// 1 and then 2 worker processes (scripts/worker.ts). The platform answers read-backs after
// BENCH_READBACK_LATENCY_MS (default 20 ms). A second scenario makes the platform the bottleneck (read-backs
// answered after 250 ms, 200 events/s for 30 s): there a worker's processing loops spend their time
// waiting, and a second worker process should raise the processed rate.
// Each run starts with the events' operations mirrored as `created`; each operation then sends an
// in-progress event and, about a second later, its final one (events, resetMirror). Midway through the
// measured seconds the worker's five-minute jobs (stuck-operation scan, incremental reconciliation,
// ledger upkeep) are queued once, as production runs them.
// Measured: processed events/s, inbox lag p50/p99 (received → processed), worker CPU, lost events. The first
// scenario starts with 10 s of warm-up at its rate, for other operations: reported apart as the cold start.
// BENCH_PROCESSING_SCENARIOS=1 runs only the first scenario, BENCH_PROCESSING_WORKERS=1 only one worker count.
// BENCH_CHILD_STDERR=1 shows the web and worker processes' errors (they are silent otherwise).
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import http from "node:http";
import path from "node:path";
import pg from "pg";
import { freePort } from "../../scripts/lib/embedded-postgres";
import { applySnapshotsBatch } from "../../lib/operations/mirror/apply-batch";
import { enqueueJob } from "../../lib/queue/enqueue";
import { jobs, type JobName } from "../../lib/queue/queues";
import { decodeOperationList } from "../../lib/platform/schemas";
import { parseWireJson } from "../../lib/platform/wire";
import { projectRoot } from "../../scripts/lib/database";
import { startSandboxProcess } from "./integration";
import type { BenchFigure } from "./sandbox";
import { cpuSeconds, ownCpuSeconds, postgresCpuSeconds } from "./cpu";
import { packageScript } from "./package-script";
import { waitForAutovacuumIdle } from "./quiet";

type Scenario = {
  label: string;
  rate: number;
  seconds: number;
  readBackLatencyMs: number;
  /** Sent at the same rate, for other operations, right before the measured seconds (see run). */
  warmUpSeconds: number;
};
const SCENARIOS: Scenario[] = [
  {
    label: "",
    rate: Number(process.env.BENCH_WEBHOOK_RATE ?? 500),
    seconds: Number(process.env.BENCH_WEBHOOK_SECONDS ?? 60),
    readBackLatencyMs: Number(process.env.BENCH_READBACK_LATENCY_MS ?? 20),
    warmUpSeconds: 10,
  },
  { label: "read-back-bound, ", rate: 200, seconds: 30, readBackLatencyMs: 250, warmUpSeconds: 0 },
];
const MEASURED_OPERATIONS = 20_000;
const WARM_UP_OPERATIONS = 4_000;
const WORKER_COUNTS = (process.env.BENCH_PROCESSING_WORKERS ?? "1,2").split(",").map(Number);
const DRAIN_LIMIT_MS = 120_000;
const round = (v: number, digits = 1) => Math.round(v * 10 ** digits) / 10 ** digits;

type WireOperation = Record<string, unknown> & { id: string; status: string; dateUpdated: string | null };

/** A process started as `npm run <script>` starts it (its node flags and file), with more arguments. */
function scriptProcess(script: "start" | "worker", args: string[], env: NodeJS.ProcessEnv): ChildProcess {
  const { nodeFlags, file } = packageScript(script);
  return spawn(process.execPath, [...nodeFlags, "--import", "tsx", path.join(projectRoot, file), ...args], {
    cwd: projectRoot,
    env: { ...env, NODE_ENV: "production" },
    stdio: ["ignore", "ignore", process.env.BENCH_CHILD_STDERR ? "inherit" : "ignore"],
  });
}

/**
 * POSTs one webhook body and resolves with the HTTP status. node:http with a keep-alive agent rather than
 * fetch: the sender shares the machine with what it measures, and fetch cost it ~0.8 ms of CPU a request.
 */
function postBody(agent: http.Agent, url: string, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: "POST",
        agent,
        headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) },
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/** CPU seconds so far of each process in the pipeline: where the machine's cores go per event. */
async function pipelineCpu(
  databasePort: string,
  pids: { web?: number; sandbox?: number; workers: (number | undefined)[] },
) {
  return {
    sender: ownCpuSeconds(),
    web: await cpuSeconds(pids.web),
    sandbox: await cpuSeconds(pids.sandbox),
    workers: (await Promise.all(pids.workers.map((pid) => cpuSeconds(pid)))).reduce((s, c) => s + c, 0),
    postgres: await postgresCpuSeconds(databasePort),
  };
}
type PipelineCpu = Awaited<ReturnType<typeof pipelineCpu>>;

async function seededOperations(url: string, token: string, count: number): Promise<WireOperation[]> {
  const control = (p: string, body: unknown) =>
    fetch(`${url}/__sandbox${p}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  await control("/seed", { merchant: "demo", count, days: 1, seed: 7 });
  const found: WireOperation[] = [];
  for (let skip = 0; found.length < count; skip += 1000) {
    const res = await fetch(`${url}/operation/operation/list`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ skip, take: 1000 }),
    });
    const page = (await res.json()) as { data: WireOperation[] };
    if (page.data.length === 0) break;
    found.push(...page.data);
  }
  return found;
}

/** An operation's final event follows its first one by this many operations (about 1 s at 500 events/s). */
const FINAL_AFTER_OPERATIONS = 250;

const isFinalOperation = (op: WireOperation) => op.status === "success" || op.status === "failed";

/**
 * Operations as the platform reports them to a mirror that has them from their creation (as Paydesk's
 * own pay-outs and pay-ins, or any operation a reconciliation found): first an in-progress event,
 * applied from its body, then about a second later the final one, read back from the platform and
 * applied with the ledger's postings. Half of the events are finals. The first finals are of
 * operations whose in-progress event comes at the end.
 */
function events(operations: WireOperation[], total: number): string[] {
  const finals = operations.filter(isFinalOperation);
  const body = (data: WireOperation) => JSON.stringify({ status: "Success", traceID: randomUUID(), data });
  const at = (k: number) => finals[((k % finals.length) + finals.length) % finals.length]!;
  const bodies: string[] = [];
  for (let k = 0; bodies.length < total; k++) {
    bodies.push(body({ ...at(k), status: "in_progress" }));
    if (bodies.length < total) bodies.push(body(at(k - FINAL_AFTER_OPERATIONS)));
  }
  return bodies;
}

/**
 * Every run starts from the same state: an empty inbox, the events' operations mirrored as `created`
 * (by the reconciliation's write path), and a completed reconciliation, so that the workers' start-up
 * run reads only the last minutes instead of mirroring every operation as it is now (final: the events
 * would then change nothing).
 */
async function resetMirror(databaseUrl: string, operations: WireOperation[]): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  await client.query(
    `TRUNCATE "WebhookDelivery", "OperationStatusChange", "Operation", "LedgerBucket", "ReconciliationRun" CASCADE`,
  );
  const created = operations.filter(isFinalOperation).map((op) => ({ ...op, status: "created" }));
  for (let i = 0; i < created.length; i += 1000) {
    const page = decodeOperationList(parseWireJson(JSON.stringify(created.slice(i, i + 1000))));
    await applySnapshotsBatch(page, "reconciliation", "bench: created");
  }
  await client.query(
    `INSERT INTO "ReconciliationRun" (id, kind, status, "startedAt", "finishedAt", watermark)
     VALUES (gen_random_uuid(), 'full', 'completed', now(), now(), now())`,
  );
  await waitForAutovacuumIdle(client);
  await client.end();
}

const FIVE_MINUTE_JOBS = (Object.keys(jobs) as JobName[]).filter((name) => jobs[name].cron === "*/5 * * * *");

async function queueFiveMinuteJobs(): Promise<void> {
  const queued = await Promise.all(FIVE_MINUTE_JOBS.map((name) => enqueueJob(name)));
  console.log(
    `[bench] five-minute jobs queued midway: ${FIVE_MINUTE_JOBS.map((name, i) => `${name}${queued[i] ? "" : " (one already waiting)"}`).join(", ")}`,
  );
}

async function run(ctx: {
  databaseUrl: string;
  env: NodeJS.ProcessEnv;
  webhookUrl: string;
  bodies: string[];
  warmUpBodies: string[];
  /** Every operation the bodies are about. */
  operations: WireOperation[];
  workers: number;
  scenario: Scenario;
  pids: { web?: number; sandbox?: number };
}): Promise<BenchFigure[]> {
  const { rate, seconds } = ctx.scenario;
  await resetMirror(ctx.databaseUrl, ctx.operations);
  const workers = Array.from({ length: ctx.workers }, () => scriptProcess("worker", [], ctx.env));
  await new Promise((r) => setTimeout(r, 8_000)); // workers started, pg-boss schema ready
  const pids = { ...ctx.pids, workers: workers.map((w) => w.pid) };
  const databasePort = new URL(ctx.databaseUrl).port;
  const perTick = rate / 100;
  let sent = 0;
  let failed = 0;
  const inFlight = new Set<Promise<void>>();
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const send = (body: string) => {
    sent++;
    const p = postBody(agent, ctx.webhookUrl, body).then(
      (status) => void (status >= 200 && status < 300 ? undefined : failed++),
      () => void failed++,
    );
    inFlight.add(p);
    void p.finally(() => inFlight.delete(p));
  };
  // Sends `bodies` at the scenario's rate for `duration` seconds, on a 10 ms clock.
  const sendFor = async (duration: number, bodies: string[]) => {
    const started = performance.now();
    for (let tick = 0, i = 0; tick < duration * 100; tick++) {
      const wait = started + tick * 10 - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      for (let k = 0; k < perTick; k++) send(bodies[i++ % bodies.length]!);
    }
  };
  // A worker just started runs cold (unoptimised code, new database sessions): its first seconds are
  // measured on their own, and the sustained figures start once it has run at the full rate.
  const warmUpStart = new Date();
  await sendFor(ctx.scenario.warmUpSeconds, ctx.warmUpBodies);
  const windowStart = new Date();
  const cpuBefore = await pipelineCpu(databasePort, pids);
  const started = performance.now();
  // The worker's five-minute jobs run once in the middle of the measured seconds, as in one minute of
  // every five in production: each run measures them, not only those that happen to pass a five-minute mark.
  const midway = setTimeout(() => void queueFiveMinuteJobs(), (seconds * 1000) / 2);
  await sendFor(seconds, ctx.bodies);
  clearTimeout(midway);
  await Promise.all(inFlight);
  agent.destroy();
  const sendSeconds = (performance.now() - started) / 1000;
  const client = new pg.Client({ connectionString: ctx.databaseUrl });
  await client.connect();
  const drainStarted = Date.now();
  for (;;) {
    const { rows } = await client.query<{ n: string }>(
      `SELECT count(*) AS n FROM "WebhookDelivery" WHERE outcome = 'received'`,
    );
    if (Number(rows[0]?.n) === 0 || Date.now() - drainStarted > DRAIN_LIMIT_MS) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  const cpuAfter = await pipelineCpu(databasePort, pids);
  const elapsed = sendSeconds + (Date.now() - drainStarted) / 1000;
  const { rows } = await client.query<{
    stored: string;
    pending: string;
    processed: string;
    p50: number;
    p99: number;
    cold_p99: number | null;
    span: number;
    finals: string;
  }>(
    `SELECT count(*) AS stored,
            count(*) FILTER (WHERE outcome = 'received') AS pending,
            count(*) FILTER (WHERE measured AND outcome <> 'received') AS processed,
            percentile_cont(0.5) WITHIN GROUP (ORDER BY lag) FILTER (WHERE measured) AS p50,
            percentile_cont(0.99) WITHIN GROUP (ORDER BY lag) FILTER (WHERE measured) AS p99,
            percentile_cont(0.99) WITHIN GROUP (ORDER BY lag) FILTER (WHERE NOT measured) AS cold_p99,
            extract(epoch FROM max("processedAt") FILTER (WHERE measured) - $1) AS span,
            count(*) FILTER (WHERE measured AND "readBackTraceID" IS NOT NULL) AS finals
     FROM (SELECT outcome, "processedAt", "readBackTraceID", "receivedAt" >= $1 AS measured,
                  extract(epoch FROM "processedAt" - "receivedAt") AS lag
           FROM "WebhookDelivery") d`,
    [windowStart],
  );
  const timeline = await client.query<{ second: number; p99: number; max: number }>(
    `SELECT floor(extract(epoch FROM "receivedAt" - $1) / 5) * 5 AS second,
            round(percentile_cont(0.99) WITHIN GROUP (ORDER BY extract(epoch FROM "processedAt" - "receivedAt"))::numeric, 2) AS p99,
            round(max(extract(epoch FROM "processedAt" - "receivedAt"))::numeric, 2) AS max
     FROM "WebhookDelivery" GROUP BY 1 ORDER BY 1`,
    [warmUpStart],
  );
  // The worker's scheduled jobs share its cores with the processing: a tail in the lag often starts with one.
  const jobsRun = await client.query<{ name: string; at: string; took: string }>(
    `SELECT name, round(extract(epoch FROM started_on - $1)::numeric, 1) AS at,
            round(extract(epoch FROM completed_on - started_on)::numeric, 1) AS took
     FROM pgboss.job WHERE started_on >= $1 AND name NOT LIKE '\_\_pgboss%' ORDER BY started_on`,
    [warmUpStart],
  );
  console.log(
    `[bench] scheduled jobs (started at s, took s): ${jobsRun.rows.map((j) => `${j.name} ${j.at}+${j.took}`).join(", ") || "none"}`,
  );
  const runs = await client.query<{
    at: string;
    took: string;
    seen: number;
    pages: number;
    stop: string | null;
  }>(
    `SELECT round(extract(epoch FROM "startedAt" - $1)::numeric, 1) AS at,
            round(extract(epoch FROM "finishedAt" - "startedAt")::numeric, 1) AS took,
            "operationsSeen" AS seen, pages, "stopCode" AS stop
     FROM "ReconciliationRun" WHERE "startedAt" >= $1 ORDER BY "startedAt"`,
    [warmUpStart],
  );
  console.log(
    `[bench] reconciliation runs (started at s, took s): ${runs.rows.map((r) => `${r.at}+${r.took} ${r.seen} operations in ${r.pages} pages (${r.stop})`).join(", ") || "none"}`,
  );
  console.log(
    `[bench] lag by 5 s of receipt, warm-up included (from s: p99/max s): ${timeline.rows.map((t) => `${t.second}: ${t.p99}/${t.max}`).join(", ")}`,
  );
  await client.end();
  await Promise.all(
    workers.map(
      (w) =>
        new Promise<void>((resolve) =>
          w.exitCode !== null ? resolve() : (w.once("exit", () => resolve()), w.kill("SIGTERM")),
        ),
    ),
  );
  const r = rows[0]!;
  const stored = Number(r.stored);
  const lost = sent - failed - stored;
  const used = (k: keyof PipelineCpu) => cpuAfter[k] - cpuBefore[k];
  const share = (k: keyof PipelineCpu) => `${k} ${round((used(k) / elapsed) * 100)} %`;
  const processed = Number(r.processed);
  const total = (Object.keys(cpuAfter) as (keyof PipelineCpu)[]).reduce((s, k) => s + used(k), 0);
  const label = `${ctx.scenario.label}${ctx.workers} worker${ctx.workers > 1 ? "s" : ""}`;
  const warmUp = ctx.scenario.warmUpSeconds;
  const p99 = round(Number(r.p99), 2);
  const figures: BenchFigure[] = [
    {
      name: `processing (${label}): events sent at ${rate}/s for ${warmUp ? `${warmUp} s of warm-up and ` : ""}${seconds} s (${round(sendSeconds)} s actual), stored, refused`,
      value: stored,
      unit: `stored of ${sent} (${failed} refused, ${lost} lost)`,
      goal: "0 lost",
      ok: lost === 0 && failed === 0,
    },
    {
      name: `processing (${label}): processed events/s (${r.finals} read back; all ${processed} in ${round(Number(r.span))} s)`,
      value: round(processed / Math.max(Number(r.span), seconds)),
      unit: "events/s",
    },
    {
      name: `processing (${label}): inbox lag received → processed, p99 (p50 ${round(Number(r.p50), 2)} s)`,
      value: p99,
      unit: "s",
      goal: "<= 2 s",
      ok: p99 <= 2 && Number(r.pending) === 0,
    },
    {
      name: `processing (${label}): worker CPU while sending and draining`,
      value: round((used("workers") / elapsed) * 100),
      unit: "% of one core (sum over workers)",
    },
    {
      name: `processing (${label}): CPU of the whole pipeline per processed event (${(["sender", "web", "sandbox", "workers", "postgres"] as const).map(share).join(", ")} of one core)`,
      value: round((total / Math.max(processed, 1)) * 1000, 2),
      unit: "ms",
    },
  ];
  if (warmUp > 0 && r.cold_p99 !== null) {
    figures.push({
      name: `processing (${label}): cold start, lag p99 of the ${warmUp} s of warm-up sent from the workers' start (other operations; not in the figures above)`,
      value: round(Number(r.cold_p99), 2),
      unit: "s",
    });
  }
  return figures;
}

export async function benchProcessing(ctx: { databaseUrl: string; appEnv: NodeJS.ProcessEnv }) {
  const sandbox = await startSandboxProcess();
  const port = await freePort();
  let web: ChildProcess | undefined;
  try {
    const pathSecret = randomBytes(24).toString("base64url");
    const operations = await seededOperations(
      sandbox.url,
      sandbox.token,
      MEASURED_OPERATIONS + WARM_UP_OPERATIONS,
    );
    const measured = operations.slice(0, MEASURED_OPERATIONS);
    const warmedUp = operations.slice(MEASURED_OPERATIONS);
    const env = {
      ...ctx.appEnv,
      PLATFORM_BASE_URL: sandbox.url,
      PLATFORM_TOKEN: sandbox.token,
      DATABASE_POOL_SIZE: "10",
      LOG_LEVEL: "warn",
      // The receiver requires the secret path segment, as in production.
      WEBHOOK_PATH_SECRET: pathSecret,
      // No load balancer to tell: SIGTERM at the end closes the receiver at once.
      SHUTDOWN_GRACE_MS: "0",
    };
    web = scriptProcess("start", ["--webhooks-only", "--port", String(port), "--hostname", "127.0.0.1"], env);
    for (let i = 0; i < 120; i++) {
      const ok = await fetch(`http://127.0.0.1:${port}/api/health/ready`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    const webhookUrl = `http://127.0.0.1:${port}/api/webhooks/platform/${pathSecret}`;
    const figures: BenchFigure[] = [];
    for (const scenario of SCENARIOS.slice(
      0,
      Number(process.env.BENCH_PROCESSING_SCENARIOS ?? SCENARIOS.length),
    )) {
      await fetch(`${sandbox.url}/__sandbox/faults`, {
        method: "PUT",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ latencyMs: scenario.readBackLatencyMs }),
      });
      figures.push({
        name: `processing (${scenario.label}${scenario.rate} events/s): platform read-back latency (sandbox fault)`,
        value: scenario.readBackLatencyMs,
        unit: "ms",
      });
      const bodies = events(measured, scenario.rate * scenario.seconds);
      const warmUpBodies = events(warmedUp, scenario.rate * scenario.warmUpSeconds);
      for (const workers of WORKER_COUNTS) {
        console.log(`[bench] processing: ${scenario.label}${workers} worker(s) ...`);
        figures.push(
          ...(await run({
            databaseUrl: ctx.databaseUrl,
            env,
            webhookUrl,
            bodies,
            warmUpBodies,
            operations,
            workers,
            scenario,
            pids: { web: web.pid, sandbox: sandbox.pid },
          })),
        );
      }
    }
    return figures;
  } finally {
    web?.kill("SIGTERM");
    sandbox.stop();
  }
}
