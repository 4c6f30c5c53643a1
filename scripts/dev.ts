// npm run dev — the whole product on one machine: PostgreSQL (DATABASE_URL or embedded in .data/postgres),
// migrations, the platform sandbox (unless PLATFORM_BASE_URL is set), demo users, and the web server
// (scripts/server.ts: Next.js in development mode with the webhook receiver ahead of it).
import { spawn } from "node:child_process";
import path from "node:path";
import { openDatabase, projectRoot, StartupError } from "./lib/database";
import { serverCommand } from "./lib/server-command";
import { loadDotEnv } from "./lib/dotenv";
import { seedDemoUsers } from "./lib/demo-users";
import { migrate } from "./lib/migrations";
import { devAuthSecret } from "./lib/dev-secret";
import { registerWebhookUrl, startDevSandbox } from "./lib/dev-sandbox";
import { startWorker } from "../lib/jobs/worker";
import { webhookPathToRegister } from "../lib/webhooks/path-secret";

const log = (line: string) => console.log(`[paydesk] ${line}`);
const stops: Array<() => Promise<void>> = [];

async function main(): Promise<void> {
  loadDotEnv();
  process.env.NEXT_TELEMETRY_DISABLED = "1";
  const dataDir = path.join(projectRoot, ".data");

  const db = await openDatabase({
    dataDir: path.join(dataDir, "postgres"),
    database: "paydesk",
    log,
    ownProcessGroup: true,
  });
  stops.push(db.stop);
  process.env.DATABASE_URL = db.url;
  log(
    db.embedded
      ? `embedded PostgreSQL on ${new URL(db.url).host} (data in .data/postgres)`
      : "using DATABASE_URL",
  );

  const migrated = await migrate(db.url, { log: (line) => log(`migration ${line}`) });
  log(`database schema up to date (${migrated.alreadyApplied + migrated.applied.length} migrations)`);

  process.env.AUTH_SECRET ||= await devAuthSecret(dataDir);

  const port = process.env.PORT ?? "3000";
  let sandboxUrl: string | null = null;
  if (!process.env.PLATFORM_BASE_URL) {
    const sandbox = await startDevSandbox(dataDir);
    stops.push(sandbox.stop);
    sandboxUrl = sandbox.url;
    process.env.PLATFORM_BASE_URL = sandbox.url;
    process.env.PLATFORM_TOKEN = sandbox.token;
    log(`platform sandbox on ${sandbox.url} (autopilot on; controls at ${sandbox.url}/__sandbox/)`);
  } else {
    log(`platform: ${process.env.PLATFORM_BASE_URL}`);
  }

  // The platform signs nothing: webhooks need the secret path segment (generated and kept in the
  // database on the first start) unless an admin chose an open endpoint in Settings.
  const webhookUrl = `http://127.0.0.1:${port}${await webhookPathToRegister()}`;
  if (sandboxUrl) {
    await registerWebhookUrl(sandboxUrl, webhookUrl);
    log("the sandbox sends webhooks to the URL shown in Settings (with its secret path segment)");
  } else {
    log("register the webhook URL shown in Settings with the platform");
  }

  const users = await seedDemoUsers();
  log("demo users (email / password):");
  for (const u of users) log(`  ${u.role.padEnd(8)} ${u.email} / ${u.password}`);

  const worker = await startWorker();
  stops.push(worker.stop);
  log("background jobs running in-process (webhooks, reconciliation, balance snapshots, stuck checks)");

  const next = spawn(process.execPath, [...serverCommand, "--dev", "-p", port], {
    stdio: "inherit",
    env: process.env,
    cwd: projectRoot,
  });
  log(`console on http://localhost:${port}`);
  const serverExited = new Promise<number>((resolve) => next.once("exit", (code) => resolve(code ?? 0)));
  // In order: the web server (it finishes the requests in flight), the worker, the sandbox, and the
  // database last, so nothing that is still running loses its database.
  let stopping = false;
  const stopAll = async (code: number) => {
    if (stopping) return;
    stopping = true;
    log("stopping: web server, worker, sandbox, then the database");
    next.kill("SIGTERM");
    await serverExited;
    for (const stop of stops.reverse()) await stop().catch(() => {});
    log("stopped");
    process.exit(code);
  };
  process.on("SIGINT", () => void stopAll(0));
  process.on("SIGTERM", () => void stopAll(0));
  void serverExited.then((code) => stopAll(code));
}

main().catch(async (error: unknown) => {
  console.error(error instanceof StartupError || error instanceof Error ? error.message : String(error));
  for (const stop of stops.reverse()) await stop().catch(() => {});
  process.exit(1);
});
