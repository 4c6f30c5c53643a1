import "server-only";
import pg from "pg";
import { getDatabaseUrl } from "@/lib/env";
import { getLog } from "@/lib/log";

/**
 * Runs `fn` holding a session advisory lock on a connection of its own, so the lock goes with the
 * session if the process dies. `wait: false` returns null at once when another session holds it.
 * The session sits idle while `fn` works: its ending (a database restart) is logged, not thrown at the
 * process.
 */
export async function withSessionAdvisoryLock<T>(
  key: number,
  options: { wait: boolean; purpose: string },
  fn: () => Promise<T>,
): Promise<T | null> {
  const client = new pg.Client({ connectionString: getDatabaseUrl() });
  client.on("error", (error) =>
    getLog().warn({ err: error, lock: options.purpose }, "an advisory lock's session ended"),
  );
  await client.connect();
  try {
    if (options.wait) await client.query("SELECT pg_advisory_lock($1)", [key]);
    else {
      const { rows } = await client.query<{ locked: boolean }>("SELECT pg_try_advisory_lock($1) AS locked", [
        key,
      ]);
      if (!rows[0]?.locked) return null;
    }
    return await fn();
  } finally {
    await client.end(); // ends the session, which releases the lock
  }
}
