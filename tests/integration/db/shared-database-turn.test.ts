// Files run two at a time; one on the shared test database holds it to itself (tests/setup/shared-database.ts).
import path from "node:path";
import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { SHARED_DATABASE_LOCK, usesSharedDatabase } from "../../setup/shared-database";

const root = path.resolve(import.meta.dirname, "../../..");

describe("the shared test database's turn", () => {
  it("is held by this file's session for as long as it runs", async () => {
    const [classid, objid] = SHARED_DATABASE_LOCK;
    const holders = await getDb().$queryRaw<{ granted: boolean }[]>`
      SELECT bool_or(granted) AS granted
      FROM pg_locks
      WHERE locktype = 'advisory' AND classid = ${classid}::oid AND objid = ${objid}::oid AND objsubid = 2
        AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`;
    expect(holders[0]?.granted).toBe(true);
  });

  it("is taken by integration files on the shared database, not by isolated or unit files", async () => {
    const file = (name: string) => path.join(root, "tests", name);
    expect(await usesSharedDatabase(file("integration/reconcile/reconcile.test.ts"))).toBe(true);
    expect(await usesSharedDatabase(file("integration/db/shared-database-turn.test.ts"))).toBe(true);
    expect(await usesSharedDatabase(file("integration/chaos/multi-process.test.ts"))).toBe(false);
    expect(await usesSharedDatabase(file("integration/jobs/worker-start.test.ts"))).toBe(false);
    expect(await usesSharedDatabase(file("unit/env.test.ts"))).toBe(false);
  });
});
