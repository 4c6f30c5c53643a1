// Applies prisma/migrations/*/migration.sql and records them in `_prisma_migrations` exactly as
// `prisma migrate deploy` does (same table, checksum, timestamps, advisory lock), so either tool can be used.
// Like deploy, it carries on past a migration the database has and the files do not (a release rolled
// back: the newer release's migration stays applied), with a warning, and it takes a file checked out
// with other line endings (CRLF) as the one that was applied. Unlike deploy, it refuses an applied
// migration whose file was changed otherwise.
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
      return { name, sql, checksum: sha256(sql) };
    }),
  );
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/**
 * Whether a file matches the checksum recorded when it was applied, as Prisma's script_matches_checksum
 * decides (prisma-engines, schema-connector checksum.rs): the file as read, with CRLF made LF, or with
 * LF made CRLF (git may check a file out either way); and a checksum written by an old schema engine
 * without zero-padding its hex bytes. What is recorded stays the sha256 hex of the file as read.
 */
export function scriptMatchesChecksum(sql: string, checksum: string): boolean {
  const variants = [sql, sql.replaceAll("\r\n", "\n"), sql.replaceAll("\n", "\r\n")];
  return variants.some((variant) => {
    const digest = createHash("sha256").update(variant).digest();
    const rendered =
      checksum.length !== 0 && checksum.length !== 64
        ? [...digest].map((byte) => byte.toString(16)).join("")
        : digest.toString("hex");
    return rendered === checksum;
  });
}

type AppliedRow = {
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
  rolled_back_at: Date | null;
};

export type MigrateResult = {
  applied: string[];
  alreadyApplied: number;
  /** Applied to the database, missing from the files (a rolled-back release's): warned about, left alone. */
  notInFiles: string[];
};

export async function migrate(
  connectionString: string,
  options: { dir?: string; log?: (line: string) => void; warn?: (line: string) => void } = {},
): Promise<MigrateResult> {
  const log = options.log ?? (() => {});
  const warn = options.warn ?? ((line: string) => console.warn(line));
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
    const { pending, notInFiles } = checkHistory(local, rows);
    for (const name of notInFiles) {
      warn(
        `warning: migration ${name} is applied to the database but not in prisma/migrations (a newer release's?); left as it is`,
      );
    }
    for (const migration of pending) {
      await applyOne(client, migration);
      log(`applied ${migration.name}`);
    }
    return {
      applied: pending.map((m) => m.name),
      alreadyApplied: local.length - pending.length,
      notInFiles,
    };
  } finally {
    await client.query("SELECT pg_advisory_unlock($1)", [PRISMA_ADVISORY_LOCK]).catch(() => {});
    await client.end();
  }
}

/**
 * Refuses a database with a failed migration or an applied file changed since; returns the migrations
 * still to apply and those applied that the files do not have.
 */
function checkHistory(
  local: LocalMigration[],
  applied: AppliedRow[],
): { pending: LocalMigration[]; notInFiles: string[] } {
  const byName = new Map(local.map((m) => [m.name, m]));
  const notInFiles: string[] = [];
  for (const row of applied) {
    if (!row.finished_at) {
      throw new MigrationError(
        `Migration ${row.migration_name} started but did not finish: resolve it (prisma migrate resolve) before migrating again.`,
      );
    }
    const file = byName.get(row.migration_name);
    if (!file) {
      notInFiles.push(row.migration_name);
      continue;
    }
    if (!scriptMatchesChecksum(file.sql, row.checksum)) {
      throw new MigrationError(
        `Migration ${row.migration_name} was changed after it was applied (checksum differs): add a new migration instead of editing an applied one.`,
      );
    }
  }
  const done = new Set(applied.map((r) => r.migration_name));
  return { pending: local.filter((m) => !done.has(m.name)), notInFiles };
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
