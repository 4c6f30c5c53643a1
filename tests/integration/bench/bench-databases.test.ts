// `npm run bench` runs its sections one after another, each on a database of its own. A section may
// close the process's client itself (the console section does); pointing at the next database must
// still work, and not fail the whole run on a pool ended twice.
import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { inject } from "vitest";
import { getDb, poolConnection } from "@/lib/db";
import { enqueueJob } from "@/lib/queue/enqueue";
import { createBenchDatabase, pointAtDatabase } from "../../bench/databases";
import { withClient } from "../../support/database";

const shared = process.env.DATABASE_URL!;
const server = inject("databaseUrl");
const created: string[] = [];

async function benchDatabase(): Promise<{ url: string; name: string }> {
  const name = `bench_${randomUUID().replaceAll("-", "")}`;
  created.push(name);
  return { url: await createBenchDatabase(server, name), name };
}

async function databaseOfPrisma(): Promise<string> {
  const [row] = await getDb().$queryRaw<Array<{ name: string }>>`SELECT current_database() AS name`;
  return row!.name;
}

async function databaseOfPool(): Promise<string> {
  const client = await poolConnection();
  try {
    return (await client.query<{ name: string }>("SELECT current_database() AS name")).rows[0]!.name;
  } finally {
    client.release();
  }
}

afterAll(async () => {
  await pointAtDatabase(shared);
  await withClient(server, async (c) => {
    for (const name of created) await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  });
});

describe("the bench's databases", () => {
  it("creates a migrated database and points Prisma and the raw pool at it", async () => {
    const first = await benchDatabase();
    const env = await pointAtDatabase(first.url);
    expect(env.DATABASE_URL).toBe(first.url);
    expect(await databaseOfPrisma()).toBe(first.name);
    expect(await databaseOfPool()).toBe(first.name);
    expect(await getDb().user.count()).toBe(0); // migrated: the tables are there
  });

  it("moves on after a section closed the client itself, and when pointed twice", async () => {
    const next = await benchDatabase();
    await getDb().$queryRaw`SELECT 1`;
    await getDb().$disconnect(); // what the console section does when it is done
    await pointAtDatabase(next.url);
    await pointAtDatabase(next.url);
    expect(await databaseOfPrisma()).toBe(next.name);
    expect(await databaseOfPool()).toBe(next.name);
  });

  it("points the job sender at the new database too (the processing section queues jobs)", async () => {
    const jobsIn = (url: string) =>
      withClient(url, async (c) => Number((await c.query(`SELECT count(*) AS n FROM pgboss.job`)).rows[0].n));
    const first = await benchDatabase();
    await pointAtDatabase(first.url);
    await enqueueJob("ledgerUpkeep");
    const second = await benchDatabase();
    await pointAtDatabase(second.url);
    await enqueueJob("ledgerUpkeep");
    expect(await jobsIn(first.url)).toBe(1);
    expect(await jobsIn(second.url)).toBe(1);
  }, 60_000);
});
