import "server-only";
import pg from "pg";

/** One line that says why the database cannot be used, or null when it answers. */
export async function describeDatabaseProblem(
  connectionString: string,
  timeoutMs = 5000,
): Promise<string | null> {
  const url = new URL(connectionString);
  const where = `${url.hostname}:${url.port || 5432}${url.pathname}`;
  const client = new pg.Client({ connectionString, connectionTimeoutMillis: timeoutMs });
  try {
    await client.connect();
    await client.query("SELECT 1");
    return null;
  } catch (error) {
    const e = error as { code?: string; message?: string };
    const reason = e.code ? `${e.code}: ${e.message}` : (e.message ?? String(error));
    return `Database error: cannot use the database at ${where} (${reason}); check DATABASE_URL.`;
  } finally {
    await client.end().catch(() => {});
  }
}
