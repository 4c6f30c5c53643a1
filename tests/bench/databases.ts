// The bench's databases: one per section on the bench's PostgreSQL, and this process pointed at it.
import { migrate } from "../../scripts/lib/migrations";
import { createDatabase, pointDatabaseAt } from "../support/process-database";

/** Creates and migrates database `name` on the server at `baseUrl`; returns its URL. */
export async function createBenchDatabase(baseUrl: string, name: string): Promise<string> {
  const url = await createDatabase(baseUrl, name);
  await migrate(url);
  return url;
}

/** Points this process (lib/db, lib/env) and the app servers it starts at one database. */
export async function pointAtDatabase(url: string): Promise<NodeJS.ProcessEnv> {
  await pointDatabaseAt(url);
  return { ...process.env, NEXT_TELEMETRY_DISABLED: "1", LOG_LEVEL: "warn" };
}
