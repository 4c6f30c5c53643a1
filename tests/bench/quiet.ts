// Keeps one bench section's leftovers out of the next one's figures.
import type pg from "pg";

/**
 * Waits (up to 2 minutes) until no autovacuum worker is busy on the server: one still cleaning up after
 * an earlier section took a share of the two cores from the measured run.
 */
export async function waitForAutovacuumIdle(client: pg.Client): Promise<void> {
  for (const started = Date.now(); Date.now() - started < 120_000;) {
    const { rows } = await client.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE backend_type = 'autovacuum worker'`,
    );
    if (rows[0]?.n === 0) return;
    await new Promise((r) => setTimeout(r, 1_000));
  }
}
