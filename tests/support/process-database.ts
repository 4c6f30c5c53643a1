// Databases for tests and the bench: created next to another on the same server, and this process's
// database client (lib/db) pointed at one. Free of vitest, so the bench can use it too.
import pg from "pg";

/** Creates an empty database `name` on the server of `serverUrl`; returns its URL. */
export async function createDatabase(serverUrl: string, name: string): Promise<string> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * Closes this process's Prisma client and pool (either may be closed already: `$disconnect` ends the
 * pool) and points the next getDb() and poolQuery() at `url`.
 */
export async function pointDatabaseAt(url: string | undefined): Promise<void> {
  const holder = globalThis as unknown as {
    paydeskDb?: { $disconnect(): Promise<void> };
    paydeskPool?: pg.Pool;
  };
  await holder.paydeskDb?.$disconnect();
  if (holder.paydeskPool && !holder.paydeskPool.ended) await holder.paydeskPool.end();
  holder.paydeskDb = undefined;
  holder.paydeskPool = undefined;
  if (url === undefined) delete process.env.DATABASE_URL;
  else process.env.DATABASE_URL = url;
}
