// npm run test:e2e — builds the app, serves it with `npm start` (scripts/server.ts) on a local database and sandbox,
// and runs the Playwright tests in the system Chromium.
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { openDatabase, projectRoot } from "./lib/database";
import { serverCommand } from "./lib/server-command";
import { seedDemoUsers } from "./lib/demo-users";
import { cliActor } from "../lib/audit/log";
import { createUser } from "../lib/users/service";
import { freePort } from "./lib/embedded-postgres";
import { migrate } from "./lib/migrations";
import { startTestSandbox } from "./lib/dev-sandbox";
import { startWorker } from "../lib/jobs/worker";
import { seedMirror } from "../tests/e2e/fixtures/seed-mirror";
import { seedTwoFactor } from "../tests/e2e/fixtures/two-factor";

const log = (line: string) => console.log(`[e2e] ${line}`);
const cleanups: Array<() => Promise<void>> = [];

function chromiumPath(): string {
  const candidate = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
  if (!existsSync(candidate)) {
    throw new Error(
      `Chromium not found at ${candidate}. Install it with \`sudo apt-get install -y chromium\` (Debian/Ubuntu) or set CHROMIUM_PATH to a Chromium binary.`,
    );
  }
  return candidate;
}

function refuseRemoteDatabase(): void {
  const url = process.env.DATABASE_URL;
  if (!url) return;
  const host = new URL(url).hostname;
  if (!["localhost", "127.0.0.1", "::1", "[::1]"].includes(host)) {
    throw new Error(
      `End-to-end tests write to the database and refuse a non-local one (DATABASE_URL host ${host}).`,
    );
  }
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: "inherit", env, cwd: projectRoot });
    child.on("exit", (code) =>
      code === 0 ? resolve() : reject(new Error(`${path.basename(command)} ${args[0]} exited with ${code}`)),
    );
  });
}

async function waitForServer(url: string, server: ChildProcess, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`the server exited with ${server.exitCode}`);
    try {
      const response = await fetch(url, { redirect: "manual" });
      if (response.status < 500) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`the server did not answer on ${url} within ${timeoutMs / 1000} s`);
}

async function main(): Promise<void> {
  const executablePath = chromiumPath();
  refuseRemoteDatabase();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "paydesk-e2e-"));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));

  // The temporary directory itself holds the cluster: embedded-postgres hands it to the postgres user.
  const db = await openDatabase({
    dataDir,
    database: "paydesk_e2e",
    persistent: false,
  });
  cleanups.push(db.stop);
  process.env.DATABASE_URL = db.url;
  await migrate(db.url);
  await seedDemoUsers();
  // A user of its own for the lockout test, so locking it never disturbs the other tests.
  await createUser(cliActor, {
    email: "lockout@paydesk.local",
    role: "support",
    password: "lockout-e2e-password",
  });
  await seedMirror(db.url);

  const port = await freePort();
  // The sandbox posts webhooks to the URL with the secret path segment, as a registered platform would.
  const webhookPathSecret = randomBytes(24).toString("base64url");
  const sandbox = await startTestSandbox(
    `http://127.0.0.1:${port}/api/webhooks/platform/${webhookPathSecret}`,
  );
  cleanups.push(sandbox.stop);

  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NEXT_TELEMETRY_DISABLED: "1",
    DATABASE_URL: db.url,
    PLATFORM_BASE_URL: sandbox.url,
    PLATFORM_TOKEN: sandbox.token,
    AUTH_SECRET: randomBytes(32).toString("base64url"),
    WEBHOOK_PATH_SECRET: webhookPathSecret,
    SANDBOX_URL: sandbox.url,
    LOG_LEVEL: process.env.LOG_LEVEL ?? "warn",
    // /error-probe fails on purpose, for tests/e2e/security-headers.spec.ts (absent everywhere else).
    E2E_ERROR_PROBE: "1",
    // The specs sign the demo users in with a password alone; tests/e2e/two-factor.spec.ts turns the
    // two-factor policy on through Settings (it runs after the others: playwright.config.ts).
    TWO_FACTOR_REQUIRED_ROLES: "none",
    // No load balancer to tell: the server closes at once on SIGTERM (the clean-up does not wait for it).
    SHUTDOWN_GRACE_MS: "0",
  };
  const next = path.join(projectRoot, "node_modules/next/dist/bin/next");
  log("building the production app (next build)");
  await run(process.execPath, [next, "build"], { ...env, NODE_ENV: "production" });

  const server = spawn(process.execPath, [...serverCommand, "-p", String(port), "-H", "127.0.0.1"], {
    stdio: "inherit",
    env,
    cwd: projectRoot,
  });
  cleanups.push(async () => {
    server.kill("SIGTERM");
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitForServer(`${baseUrl}/login`, server);
  Object.assign(process.env, env);
  // After the configuration is in place: a pay-out request reads the approval settings.
  await seedTwoFactor();
  const worker = await startWorker({ webhookLoops: 1 });
  cleanups.push(worker.stop);
  log(`serving on ${baseUrl}; running Playwright in ${executablePath}`);
  const playwright = (projectArgs: string[]) =>
    run(
      process.execPath,
      [
        path.join(projectRoot, "node_modules/@playwright/test/cli.js"),
        "test",
        ...projectArgs,
        "--pass-with-no-tests",
        ...process.argv.slice(2),
      ],
      { ...env, E2E_BASE_URL: baseUrl, CHROMIUM_PATH: executablePath },
    );
  // Two runs (playwright.config.ts): the two-factor spec turns the policy on for approvers, so it runs
  // after the others, on its own, whether or not they passed; a file filter applies to both runs.
  const first = await playwright(["--project=console"]).then(
    () => null,
    (error: unknown) => error,
  );
  await playwright(["--project=two-factor", "--no-deps"]);
  if (first) throw first;
}

let failed = false;
try {
  await main();
} catch (error) {
  failed = true;
  console.error(error instanceof Error ? error.message : String(error));
} finally {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
}
process.exit(failed ? 1 : 0);
