// Helpers for integration tests that need their own, empty database on the test server.
import { randomUUID } from "node:crypto";
import pg from "pg";
import { inject } from "vitest";

/** Creates an empty database next to the test database; returns its URL and a drop function. */
export async function createScratchDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const base = new URL(inject("databaseUrl"));
  const name = `scratch_${randomUUID().replaceAll("-", "")}`;
  const admin = new pg.Client({ connectionString: base.toString() });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: base.toString() });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await c.end();
    },
  };
}

export async function withClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * Points this test file's Prisma client at a fresh, migrated database of its own, for tests that need
 * the whole inbox or mirror to themselves. Returns a function that restores the shared test database.
 */
export async function isolateDatabase(): Promise<() => Promise<void>> {
  const { migrate } = await import("../../scripts/lib/migrations");
  const scratch = await createScratchDatabase();
  await migrate(scratch.url);
  const holder = globalThis as unknown as { paydeskDb?: { $disconnect(): Promise<void> } };
  const shared = process.env.DATABASE_URL;
  await holder.paydeskDb?.$disconnect();
  holder.paydeskDb = undefined;
  process.env.DATABASE_URL = scratch.url;
  return async () => {
    await holder.paydeskDb?.$disconnect();
    holder.paydeskDb = undefined;
    process.env.DATABASE_URL = shared;
    await scratch.drop();
  };
}
