// The bench's databases: one per section on the bench's PostgreSQL, and this process pointed at it.
import pg from "pg";
import { stopSender } from "../../lib/queue/enqueue";
import { migrate } from "../../scripts/lib/migrations";

/** Creates and migrates database `name` on the server at `baseUrl`; returns its URL. */
export async function createBenchDatabase(baseUrl: string, name: string): Promise<string> {
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  await migrate(url.toString());
  return url.toString();
}

/**
 * Points this process (lib/db, lib/env, the job sender of lib/queue/enqueue.ts) and the app servers it
 * starts at one database. The previous section's client and sender are closed first; a section may
 * have closed the client already ($disconnect ends its pool).
 */
export async function pointAtDatabase(url: string): Promise<NodeJS.ProcessEnv> {
  const holder = globalThis as unknown as {
    paydeskDb?: { $disconnect(): Promise<void> };
    paydeskPool?: pg.Pool;
  };
  await stopSender();
  await holder.paydeskDb?.$disconnect();
  if (holder.paydeskPool && !holder.paydeskPool.ended) await holder.paydeskPool.end();
  holder.paydeskDb = undefined;
  holder.paydeskPool = undefined;
  Object.assign(process.env, { DATABASE_URL: url });
  return { ...process.env, NEXT_TELEMETRY_DISABLED: "1", LOG_LEVEL: "warn" };
}
