import "server-only";
import { describeDatabaseProblem } from "@/lib/db-check";
import { EnvError, getEnv } from "@/lib/env";

/** One or more lines saying why the server cannot start, or null when configuration and database are fine. */
export async function checkStartup(): Promise<string | null> {
  try {
    const env = getEnv();
    return await describeDatabaseProblem(env.DATABASE_URL);
  } catch (error) {
    if (error instanceof EnvError) return error.message;
    throw error;
  }
}

export async function exitOnStartupProblem(): Promise<void> {
  const problem = await checkStartup();
  if (problem) {
    console.error(problem);
    process.exit(1);
  }
}

/**
 * A setting read alone (the web server's port, its shutdown grace): its value, or the problem's one line
 * (`Configuration error: PORT must be …`) and exit 1, as exitOnStartupProblem words a bad configuration.
 */
export function settingOrExit<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (!(error instanceof EnvError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
}
