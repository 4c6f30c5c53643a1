// Applies prisma/migrations/*/migration.sql and records them in `_prisma_migrations` exactly as
// `prisma migrate deploy` does (same table, checksum, timestamps, advisory lock), so either tool can be used.
import { createHash, randomUUID } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import pg from "pg";

// Prisma's own advisory lock key: our runner and `prisma migrate deploy` exclude each other.
const PRISMA_ADVISORY_LOCK = 72707369;

const CREATE_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

export type LocalMigration = { name: string; sql: string; checksum: string };

export class MigrationError extends Error {
  override name = "MigrationError";
}

export const defaultMigrationsDir = path.resolve(import.meta.dirname, "../../prisma/migrations");

export async function readMigrations(dir = defaultMigrationsDir): Promise<LocalMigration[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const names = entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  return Promise.all(
    names.map(async (name) => {
      const sql = await readFile(path.join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    }),
  );
}

type AppliedRow = {
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
  rolled_back_at: Date | null;
};

export type MigrateResult = { applied: string[]; alreadyApplied: number };

export async function migrate(
  connectionString: string,
  options: { dir?: string; log?: (line: string) => void } = {},
): Promise<MigrateResult> {
  const log = options.log ?? (() => {});
  const local = await readMigrations(options.dir);
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [PRISMA_ADVISORY_LOCK]);
    await client.query(CREATE_TABLE);
    const { rows } = await client.query<AppliedRow>(
      `SELECT migration_name, checksum, finished_at, rolled_back_at FROM "_prisma_migrations"
       WHERE rolled_back_at IS NULL ORDER BY started_at`,
    );
    const pending = checkHistory(local, rows);
    for (const migration of pending) {
      await applyOne(client, migration);
      log(`applied ${migration.name}`);
    }
    return { applied: pending.map((m) => m.name), alreadyApplied: local.length - pending.length };
  } finally {
    await client.query("SELECT pg_advisory_unlock($1)", [PRISMA_ADVISORY_LOCK]).catch(() => {});
    await client.end();
  }
}

/** Refuses a database whose history does not match the files; returns the migrations still to apply. */
function checkHistory(local: LocalMigration[], applied: AppliedRow[]): LocalMigration[] {
  const byName = new Map(local.map((m) => [m.name, m]));
  for (const row of applied) {
    if (!row.finished_at) {
      throw new MigrationError(
        `Migration ${row.migration_name} started but did not finish: resolve it (prisma migrate resolve) before migrating again.`,
      );
    }
    const file = byName.get(row.migration_name);
    if (!file) {
      throw new MigrationError(
        `Migration ${row.migration_name} is applied to the database but missing from prisma/migrations.`,
      );
    }
    if (file.checksum !== row.checksum) {
      throw new MigrationError(
        `Migration ${row.migration_name} was changed after it was applied (checksum differs): add a new migration instead of editing an applied one.`,
      );
    }
  }
  const done = new Set(applied.map((r) => r.migration_name));
  return local.filter((m) => !done.has(m.name));
}

async function applyOne(client: pg.Client, migration: LocalMigration): Promise<void> {
  const id = randomUUID();
  await client.query("BEGIN");
  try {
    await client.query(
      `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, applied_steps_count)
       VALUES ($1, $2, $3, now(), 0)`,
      [id, migration.checksum, migration.name],
    );
    await client.query(migration.sql);
    await client.query(
      `UPDATE "_prisma_migrations" SET finished_at = now(), applied_steps_count = 1 WHERE id = $1`,
      [id],
    );
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK");
    const reason = error instanceof Error ? error.message : String(error);
    throw new MigrationError(`Migration ${migration.name} failed and was rolled back: ${reason}`);
  }
}
