// Which PostgreSQL the scripts use: DATABASE_URL when set, otherwise the embedded one.
import path from "node:path";
import { describeDatabaseProblem } from "../../lib/db-check";
import { parseEnv } from "../../lib/env";
import { startEmbeddedPostgres } from "./embedded-postgres";

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
}): Promise<Database> {
  const configured = process.env.DATABASE_URL;
  if (configured) {
    const urlProblem = validateDatabaseUrl(configured);
    if (urlProblem) throw new StartupError(urlProblem);
    const problem = await describeDatabaseProblem(configured);
    if (problem) throw new StartupError(problem);
    return { url: configured, embedded: false, stop: async () => {} };
  }
  const db = await startEmbeddedPostgres(options);
  return { url: db.url, embedded: true, stop: db.stop };
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
