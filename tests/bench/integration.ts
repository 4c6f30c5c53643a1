// Integration section of `npm run bench`: webhook ingest against the production server and against a
// minimal node:http + INSERT baseline, and reconciliation of 100,000 sandbox operations into an empty
// mirror compared with a plain COPY of the same rows, then an incremental run after 1% changed.
import { fork } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { Readable } from "node:stream";
import autocannon from "autocannon";
import pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import { freePort } from "../../scripts/lib/embedded-postgres";
import { copyText } from "@/lib/db-copy-text";
import { mirrorRow } from "@/lib/operations/mirror/write-rows";
import { createPlatformClient } from "../../lib/platform/client";
import { databaseRecorder } from "../../lib/platform/record-to-db";
import type { Operation } from "../../lib/platform/schemas";
import { runReconciliation, type ReconcileOptions } from "../../lib/reconcile/run";
import type { BenchFigure } from "./sandbox";
import { startApp } from "./app-server";
import { waitForAutovacuumIdle } from "./quiet";
import { cpuSeconds, ownCpuSeconds, postgresCpuSeconds } from "./cpu";

const INGEST_SECONDS = 15;
const INGEST_CONNECTIONS = 50;
const RECONCILE_OPERATIONS = 100_000;
const RECONCILE_PAIRS = Number(process.env.BENCH_RECONCILE_PAIRS ?? 3);

const round = (v: number, digits = 1) => Math.round(v * 10 ** digits) / 10 ** digits;

function webhookBody(): string {
  const id = randomUUID();
  return JSON.stringify({
    status: "Success",
    traceID: randomUUID(),
    data: {
      id,
      dateAdded: "2026-11-20T10:00:00.000Z",
      dateUpdated: "2026-11-20T10:01:00.000Z",
      typeOperation: "payIn",
      status: "in_progress",
      idTransactionMerchant: `bench-${id}`,
      amountInitial: 1500.5,
      amountRandomized: 1500.5,
      amount: 1500.5,
      amountComission: 45.015,
      currency: "RUB",
      amountInCurrencyBalance: 15.7,
      amountComissionInCurrencyBalance: 0.4714,
      exchangeRate: 95.5,
      paymentDetailsData: {
        paymentMethod: "sbp",
        bankName: "Sberbank",
        nameMediator: "I. I.",
        number: "+79990001122",
        numberAdditional: null,
        qRcode: null,
      },
    },
  });
}

async function load(
  url: string,
): Promise<{ rps: number; p50: number; p99: number; non2xx: number; errors: number }> {
  const result = await autocannon({
    url,
    method: "POST",
    connections: INGEST_CONNECTIONS,
    duration: INGEST_SECONDS,
    headers: { "content-type": "application/json" },
    body: webhookBody(),
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

async function startBaseline(databaseUrl: string): Promise<{ url: string; stop: () => void }> {
  const port = await freePort();
  const child = fork(path.join(import.meta.dirname, "webhook-baseline.ts"), [], {
    env: { ...process.env, DATABASE_URL: databaseUrl, PORT: String(port) },
    execArgv: ["--import", "tsx"],
    stdio: "ignore",
  });
  await new Promise<void>((resolve, reject) => {
    child.once("message", () => resolve());
    child.once("exit", (code) => reject(new Error(`baseline server exited with ${code}`)));
  });
  return { url: `http://127.0.0.1:${port}/`, stop: () => child.kill("SIGTERM") };
}

async function benchIngest(env: NodeJS.ProcessEnv, databaseUrl: string): Promise<BenchFigure[]> {
  // The receiver requires the secret path segment, as in production.
  const pathSecret = randomBytes(24).toString("base64url");
  const app = await startApp({ ...env, WEBHOOK_PATH_SECRET: pathSecret });
  const endpoint = `${app.url}/api/webhooks/platform/${pathSecret}`;
  let paydesk;
  try {
    await load(endpoint); // warm-up: compiles routes, fills pools
    paydesk = await load(endpoint);
  } finally {
    await app.stop();
  }
  const baselineServer = await startBaseline(databaseUrl);
  let baseline;
  try {
    await load(baselineServer.url);
    baseline = await load(baselineServer.url);
  } finally {
    baselineServer.stop();
  }
  const ratio = paydesk.rps / baseline.rps;
  return [
    {
      name: "ingest: Paydesk webhook receiver (npm start), events/s",
      value: round(paydesk.rps),
      unit: "events/s",
      goal: ">= 1000",
      ok: paydesk.rps >= 1000,
    },
    { name: "ingest: Paydesk p50 latency", value: paydesk.p50, unit: "ms" },
    {
      name: "ingest: Paydesk p99 latency",
      value: paydesk.p99,
      unit: "ms",
      goal: "< 100",
      ok: paydesk.p99 < 100,
    },
    {
      name: "ingest: Paydesk non-2xx + errors",
      value: paydesk.non2xx + paydesk.errors,
      unit: "requests",
      goal: "0",
      ok: paydesk.non2xx + paydesk.errors === 0,
    },
    { name: "ingest: baseline node:http + INSERT, events/s", value: round(baseline.rps), unit: "events/s" },
    { name: "ingest: baseline p50 / p99 latency", value: baseline.p50, unit: `ms (p99 ${baseline.p99} ms)` },
    {
      name: "ingest: Paydesk / baseline throughput",
      value: round(ratio, 2),
      unit: "x",
      goal: ">= 0.5",
      ok: ratio >= 0.5,
    },
  ];
}

/**
 * Before a measured step: the ingest section's webhook deliveries and what the last full run wrote vacuumed
 * now (autovacuum would start on them at its next look, during the step: the COPY right after a full run
 * would share the cores with it), then no autovacuum worker busy, then a checkpoint. A full run
 * writes ~270 MB of WAL and a COPY ~170 MB: without it, the checkpoint PostgreSQL starts at every 1 GB
 * (max_wal_size) fell on whichever step was running, with its writes and the full-page images after it.
 */
async function quietDatabase(databaseUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(
      `VACUUM (ANALYZE) "WebhookDelivery", "ApiCall", "Operation", "OperationStatusChange", "LedgerPosting", "LedgerBucket"`,
    );
    await waitForAutovacuumIdle(client);
    await client.query("CHECKPOINT");
  } finally {
    await client.end();
  }
}

/** CPU seconds so far of this process, the bench's PostgreSQL and the sandbox. */
async function cpuNow(databaseUrl: string, sandboxPid: number | undefined) {
  return {
    own: ownCpuSeconds(),
    postgres: await postgresCpuSeconds(new URL(databaseUrl).port),
    sandbox: await cpuSeconds(sandboxPid),
  };
}
type CpuNow = Awaited<ReturnType<typeof cpuNow>>;
/** A step's CPU as "this process / PostgreSQL / the sandbox" in seconds. */
const cpuText = (cpu: CpuNow) =>
  `${[cpu.own, cpu.postgres, cpu.sandbox].map((s) => s.toFixed(2)).join(" / ")} s`;
const cpuSince = (before: CpuNow, after: CpuNow): CpuNow => ({
  own: after.own - before.own,
  postgres: after.postgres - before.postgres,
  sandbox: after.sandbox - before.sandbox,
});

async function copyRows(databaseUrl: string, ops: Operation[]): Promise<Measured & { buildMs: number }> {
  await quietDatabase(databaseUrl);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(
      `DROP TABLE IF EXISTS bench_copy; CREATE TABLE bench_copy (LIKE "Operation" INCLUDING ALL)`,
    );
    const columns = [
      "id",
      "dateAdded",
      "dateUpdated",
      "typeOperation",
      "status",
      "idTransactionMerchant",
      "amountInitial",
      "amountRandomized",
      "amount",
      "amountComission",
      "currency",
      "amountInCurrencyBalance",
      "amountComissionInCurrencyBalance",
      "exchangeRate",
      "paymentMethod",
      "detailsBankName",
      "detailsNameMediator",
      "detailsNumber",
      "raw",
      "lastSource",
    ] as const;
    const cpuBefore = await cpuNow(databaseUrl, undefined);
    const started = performance.now();
    const now = new Date();
    const iso = now.toISOString();
    const json = new Set(["raw"]);
    // A line a row, streamed as before: one text of all 100,000 rows would cost the baseline its own time.
    // The lines are built before the COPY starts (as since the baseline was first measured): its time
    // is both parts, one after the other, and each is reported.
    const lines = ops.map((op) =>
      copyText(
        [mirrorRow(op, "reconciliation", { paymentMethod: null, kept: null, receivedAt: now, now: iso })],
        columns,
        json,
      ),
    );
    const built = performance.now();
    await pipeline(
      Readable.from(lines),
      client.query(copyFrom(`COPY bench_copy (${columns.map((c) => `"${c}"`).join(", ")}) FROM STDIN`)),
    );
    const ms = performance.now() - started;
    const cpu = cpuSince(cpuBefore, await cpuNow(databaseUrl, undefined));
    await client.query("DROP TABLE bench_copy");
    return { ms, buildMs: built - started, cpu };
  } finally {
    await client.end();
  }
}

export async function startSandboxProcess(): Promise<{
  url: string;
  token: string;
  pid: number | undefined;
  stop: () => void;
}> {
  const child = fork(path.join(import.meta.dirname, "sandbox-process.ts"), [], {
    execArgv: ["--import", "tsx"],
    stdio: "ignore",
  });
  const { url, token } = await new Promise<{ url: string; token: string }>((resolve, reject) => {
    child.once("message", (m) => resolve(m as { url: string; token: string }));
    child.once("exit", (code) => reject(new Error(`sandbox process exited with ${code}`)));
  });
  return { url, token, pid: child.pid, stop: () => child.kill("SIGTERM") };
}

type Measured = { ms: number; cpu: CpuNow };

/** A full reconciliation into the (empty) mirror, on a quiet database. */
async function measureFullRun(
  databaseUrl: string,
  platform: ReconcileOptions["platform"],
  sandboxPid: number | undefined,
): Promise<Measured> {
  await quietDatabase(databaseUrl);
  const cpuBefore = await cpuNow(databaseUrl, sandboxPid);
  const started = performance.now();
  const full = await runReconciliation({ kind: "full", platform, take: 1000 });
  const ms = performance.now() - started;
  const cpu = cpuSince(cpuBefore, await cpuNow(databaseUrl, sandboxPid));
  if (full.status !== "completed") throw new Error(`full reconciliation: ${full.status}`);
  return { ms, cpu };
}

/** The mirror, its ledger and the runs as before the first reconciliation. */
async function emptyMirror(databaseUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(
      `TRUNCATE "Operation", "OperationStatusChange", "LedgerPosting", "LedgerBucket", "DriftItem", "ReconciliationRun" CASCADE`,
    );
  } finally {
    await client.end();
  }
}

/**
 * Where a step's time goes in CPU: this process (the client), PostgreSQL and the sandbox, and how busy
 * they kept the machine's cores (100 % = every core busy for the whole step).
 */
function cpuFigures(step: string, ms: number, cpu: CpuNow): BenchFigure[] {
  const total = cpu.own + cpu.postgres + cpu.sandbox;
  return [
    { name: `reconcile: ${step} CPU, this process`, value: round(cpu.own, 2), unit: "s" },
    { name: `reconcile: ${step} CPU, PostgreSQL`, value: round(cpu.postgres, 2), unit: "s" },
    ...(cpu.sandbox > 0
      ? [{ name: `reconcile: ${step} CPU, sandbox`, value: round(cpu.sandbox, 2), unit: "s" }]
      : []),
    {
      name: `reconcile: ${step} CPU / (cores × wall time)`,
      value: Math.round((100 * total) / ((os.availableParallelism() * ms) / 1000)),
      unit: "%",
    },
  ];
}

async function benchReconciliation(databaseUrl: string): Promise<BenchFigure[]> {
  const sandbox = await startSandboxProcess();
  try {
    const control = (method: string, p: string, body: unknown) =>
      fetch(`${sandbox.url}/__sandbox${p}`, {
        method,
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    await control("PATCH", "/merchants/demo", {
      maxTake: 1000,
      detailsPoolSize: 100_000,
      fraudRatePerMinute: 1_000_000,
    });
    await control("POST", "/seed", { merchant: "demo", count: RECONCILE_OPERATIONS, days: 90 });
    const platform = createPlatformClient({
      baseUrl: sandbox.url,
      token: sandbox.token,
      recorder: databaseRecorder,
      timeoutMs: 30_000,
    });

    // The full run and its COPY are measured in pairs, the mirror emptied between them: both vary by a
    // fifth from one run to the next on a small machine, and the pair of median ratio is reported.
    const pairs: { full: Measured; copy: Measured & { buildMs: number } }[] = [];
    let readMs = 0;
    for (let i = 0; i < RECONCILE_PAIRS; i++) {
      if (i > 0) await emptyMirror(databaseUrl);
      const full = await measureFullRun(databaseUrl, platform, sandbox.pid);
      // The same pages read again with nothing written, for the COPY; timed once: the part of the run no
      // database work can shorten. Read for each pair and let go after its COPY, so that no full run
      // carries 100,000 decoded operations in its heap (a heap a worker never has).
      const started = performance.now();
      const all: Operation[] = [];
      for (let skip = 0; skip < RECONCILE_OPERATIONS; skip += 1000)
        all.push(...(await platform.listOperations({ skip, take: 1000 })).operations);
      if (i === 0) readMs = performance.now() - started;
      pairs.push({ full, copy: await copyRows(databaseUrl, all) });
    }
    const byRatio = pairs
      .map((p) => ({ ...p, ratio: p.full.ms / p.copy.ms }))
      .sort((a, b) => a.ratio - b.ratio);
    const { full, copy } = byRatio[Math.floor(byRatio.length / 2)]!;
    const fullMs = full.ms;
    const copyMs = copy.ms;

    // 1% of the operations change: new pay-ins arrive and open ones move on.
    for (let i = 0; i < RECONCILE_OPERATIONS / 100; i++) {
      await platform.createPayIn({
        paymentMethod: "sbp",
        idTransactionMerchant: `bench-inc-${i}-${randomUUID()}`,
        amount: "1000.5",
        clientID: `bench-client-${i % 50}`,
        clientIP: "203.0.113.50",
        clientDateCreated: "2023-01-01T00:00:00Z",
      });
    }
    const started = performance.now();
    const incremental = await runReconciliation({ kind: "incremental", platform, take: 1000 });
    const incrementalMs = performance.now() - started;
    if (incremental.status !== "completed")
      throw new Error(`incremental reconciliation: ${incremental.status}`);

    const opsPerSecond = RECONCILE_OPERATIONS / (fullMs / 1000);
    return [
      {
        name: `reconcile: full run, ${RECONCILE_OPERATIONS.toLocaleString("en")} ops into an empty mirror`,
        value: round(fullMs / 1000, 2),
        unit: "s",
      },
      {
        name: "reconcile: full run throughput",
        value: Math.round(opsPerSecond),
        unit: "ops/s",
        goal: ">= 5000",
        ok: opsPerSecond >= 5000,
      },
      { name: "reconcile: plain COPY of the same rows", value: round(copyMs / 1000, 2), unit: "s" },
      {
        name: `reconcile: full run time / COPY time (median of ${pairs.length} pairs)`,
        value: round(fullMs / copyMs, 2),
        unit: "x",
        goal: "<= 2",
        ok: fullMs / copyMs <= 2,
      },
      // Every pair in the order run (the first one's full run starts cold: V8 has not optimised its code yet).
      ...pairs.map((p, i) => ({
        name: `reconcile: pair ${i + 1}, full run time / COPY time`,
        value: round(p.full.ms / p.copy.ms, 2),
        unit: `x (${round(p.full.ms / 1000, 2)} / ${round(p.copy.ms / 1000, 2)} s; full run's CPU ${cpuText(p.full.cpu)})`,
      })),
      {
        name: "reconcile: plain COPY, building its rows in this process",
        value: round(copy.buildMs / 1000, 2),
        unit: "s",
      },
      {
        name: "reconcile: plain COPY, the COPY statement of the built rows",
        value: round((copyMs - copy.buildMs) / 1000, 2),
        unit: "s",
      },
      {
        name: "reconcile: full run time / COPY statement time",
        value: round(fullMs / (copyMs - copy.buildMs), 1),
        unit: "x",
      },
      ...cpuFigures("full run", fullMs, full.cpu),
      ...cpuFigures("plain COPY", copyMs, copy.cpu),
      { name: "reconcile: reading the same pages alone", value: round(readMs / 1000, 2), unit: "s" },
      { name: "reconcile: page reads alone / COPY time", value: round(readMs / copyMs, 1), unit: "x" },
      {
        name: `reconcile: incremental run after 1% changed (${incremental.operationsSeen} ops read)`,
        value: round(incrementalMs / 1000, 2),
        unit: "s",
      },
      {
        name: "reconcile: incremental / full",
        value: round((incrementalMs / fullMs) * 100, 1),
        unit: "%",
        goal: "<= 10",
        ok: incrementalMs / fullMs <= 0.1,
      },
    ];
  } finally {
    sandbox.stop();
  }
}

export async function benchIntegration(ctx: {
  databaseUrl: string;
  appEnv: NodeJS.ProcessEnv;
}): Promise<BenchFigure[]> {
  const ingest = await benchIngest(ctx.appEnv, ctx.databaseUrl);
  const reconcile = await benchReconciliation(ctx.databaseUrl);
  return [...ingest, ...reconcile];
}
