import { createHash } from "node:crypto";
import { cp, mkdtemp, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { defaultMigrationsDir, migrate, readMigrations } from "../../../scripts/lib/migrations";
import { createScratchDatabase, withClient } from "../../support/database";

type Row = {
  id: string;
  checksum: string;
  migration_name: string;
  started_at: Date;
  finished_at: Date | null;
  applied_steps_count: number;
  rolled_back_at: Date | null;
};

let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
let dir: string;

beforeEach(async () => {
  scratch = await createScratchDatabase();
  dir = await mkdtemp(path.join(os.tmpdir(), "paydesk-migrations-"));
  await cp(defaultMigrationsDir, dir, { recursive: true });
});

afterEach(async () => {
  await scratch.drop();
  await rm(dir, { recursive: true, force: true });
});

const rows = (url: string) =>
  withClient(
    url,
    async (c) => (await c.query<Row>(`SELECT * FROM "_prisma_migrations" ORDER BY migration_name`)).rows,
  );

async function addMigration(name: string, sql: string) {
  await mkdir(path.join(dir, name));
  await writeFile(path.join(dir, name, "migration.sql"), sql);
}

describe("migration runner (records like prisma migrate deploy)", () => {
  it("applies every migration once and records checksum, timestamps and one row per migration", async () => {
    const local = await readMigrations(dir);
    const first = await migrate(scratch.url, { dir });
    expect(first.applied).toEqual(local.map((m) => m.name));

    const recorded = await rows(scratch.url);
    expect(recorded).toHaveLength(local.length);
    for (const [i, row] of recorded.entries()) {
      const sql = await readFile(path.join(dir, row.migration_name, "migration.sql"));
      expect(row.migration_name).toBe(local[i]!.name);
      expect(row.checksum).toBe(createHash("sha256").update(sql).digest("hex"));
      expect(row.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(row.finished_at).toBeInstanceOf(Date);
      expect(row.finished_at!.getTime()).toBeGreaterThanOrEqual(row.started_at.getTime());
      expect(row.applied_steps_count).toBe(1);
      expect(row.rolled_back_at).toBeNull();
    }

    const second = await migrate(scratch.url, { dir });
    expect(second).toEqual({ applied: [], alreadyApplied: local.length, notInFiles: [] });
    expect(await rows(scratch.url)).toHaveLength(local.length);
  });

  it("applies only the new migration on the next run", async () => {
    await migrate(scratch.url, { dir });
    await addMigration("29990101000000_add_note", `ALTER TABLE "Setting" ADD COLUMN "note" TEXT;`);
    const result = await migrate(scratch.url, { dir });
    expect(result.applied).toEqual(["29990101000000_add_note"]);
    const columns = await withClient(scratch.url, (c) =>
      c.query(
        `SELECT 1 FROM information_schema.columns WHERE table_name = 'Setting' AND column_name = 'note'`,
      ),
    );
    expect(columns.rowCount).toBe(1);
  });

  it("refuses to run when an applied migration's file was changed, and changes nothing", async () => {
    await migrate(scratch.url, { dir });
    const [first] = await readMigrations(dir);
    await writeFile(path.join(dir, first!.name, "migration.sql"), `${first!.sql}\n-- edited`);
    await addMigration("29990101000000_add_note", `ALTER TABLE "Setting" ADD COLUMN "note" TEXT;`);
    await expect(migrate(scratch.url, { dir })).rejects.toThrow(/was changed after it was applied/);
    expect((await rows(scratch.url)).map((r) => r.migration_name)).not.toContain("29990101000000_add_note");
  });

  // As `prisma migrate deploy` does (it refuses only failed migrations): a release rolled back to one
  // without the newer release's migration must still migrate, and start. It used to stop with
  // "missing from prisma/migrations".
  it("warns about a migration the database has and the files do not, and applies the rest", async () => {
    await addMigration("29990101000000_add_note", `ALTER TABLE "Setting" ADD COLUMN "note" TEXT;`);
    await migrate(scratch.url, { dir });
    await rm(path.join(dir, "29990101000000_add_note"), { recursive: true });
    await addMigration("29990102000000_add_other", `ALTER TABLE "Setting" ADD COLUMN "other" TEXT;`);
    const warnings: string[] = [];
    const result = await migrate(scratch.url, { dir, warn: (line) => warnings.push(line) });
    expect(result.applied).toEqual(["29990102000000_add_other"]);
    expect(result.notInFiles).toEqual(["29990101000000_add_note"]);
    expect(warnings).toEqual([
      "warning: migration 29990101000000_add_note is applied to the database but not in prisma/migrations (a newer release's?); left as it is",
    ]);
    // the database's record of it is left as it was
    expect((await rows(scratch.url)).map((r) => r.migration_name)).toContain("29990101000000_add_note");
  });

  // git may check files out with CRLF (core.autocrlf on Windows, a .gitattributes change): Prisma's
  // script_matches_checksum takes LF and CRLF as the same file. It used to be refused as "changed".
  it("takes an applied migration checked out with other line endings as unchanged, either way", async () => {
    const sql = `ALTER TABLE "Setting" ADD COLUMN "note" TEXT;\nALTER TABLE "Setting" ADD COLUMN "other" TEXT;\n`;
    await addMigration("29990101000000_lf", sql);
    await addMigration("29990102000000_crlf", `CREATE TABLE "Extra" (id INT);\r\nSELECT 1;\r\n`);
    await migrate(scratch.url, { dir });
    const recorded = Object.fromEntries((await rows(scratch.url)).map((r) => [r.migration_name, r.checksum]));
    // recorded as Prisma records it: the sha256 of the file as read, CR and all
    expect(recorded["29990102000000_crlf"]).toBe(
      createHash("sha256").update(`CREATE TABLE "Extra" (id INT);\r\nSELECT 1;\r\n`).digest("hex"),
    );

    await writeFile(path.join(dir, "29990101000000_lf", "migration.sql"), sql.replaceAll("\n", "\r\n"));
    await writeFile(
      path.join(dir, "29990102000000_crlf", "migration.sql"),
      `CREATE TABLE "Extra" (id INT);\nSELECT 1;\n`,
    );
    await addMigration("29990103000000_next", `ALTER TABLE "Setting" ADD COLUMN "third" TEXT;`);
    const result = await migrate(scratch.url, { dir });
    expect(result.applied).toEqual(["29990103000000_next"]);
    const after = Object.fromEntries((await rows(scratch.url)).map((r) => [r.migration_name, r.checksum]));
    expect(after["29990101000000_lf"]).toBe(recorded["29990101000000_lf"]);
    expect(after["29990102000000_crlf"]).toBe(recorded["29990102000000_crlf"]);

    // a real change is still refused, whatever its line endings
    await writeFile(
      path.join(dir, "29990101000000_lf", "migration.sql"),
      `${sql.replaceAll("\n", "\r\n")}-- edited\r\n`,
    );
    await expect(migrate(scratch.url, { dir })).rejects.toThrow(
      /29990101000000_lf was changed after it was applied/,
    );
  });

  it("rolls back a failing migration completely and records nothing for it", async () => {
    await migrate(scratch.url, { dir });
    await addMigration(
      "29990101000000_broken",
      `ALTER TABLE "Setting" ADD COLUMN "a" TEXT;\nSELECT * FROM "NoSuchTable";`,
    );
    await expect(migrate(scratch.url, { dir })).rejects.toThrow(
      /29990101000000_broken failed and was rolled back/,
    );
    const names = (await rows(scratch.url)).map((r) => r.migration_name);
    expect(names).not.toContain("29990101000000_broken");
    const column = await withClient(scratch.url, (c) =>
      c.query(`SELECT 1 FROM information_schema.columns WHERE table_name = 'Setting' AND column_name = 'a'`),
    );
    expect(column.rowCount).toBe(0);
  });

  it("concurrent starts apply each migration exactly once", async () => {
    const results = await Promise.all(Array.from({ length: 4 }, () => migrate(scratch.url, { dir })));
    const local = await readMigrations(dir);
    expect(results.flatMap((r) => r.applied).sort()).toEqual(local.map((m) => m.name).sort());
    expect(await rows(scratch.url)).toHaveLength(local.length);
  });

  it("makes AuditLog append-only in the database", async () => {
    await migrate(scratch.url, { dir });
    await withClient(scratch.url, async (c) => {
      await c.query(`INSERT INTO "AuditLog" (action) VALUES ('test.entry')`);
      await expect(c.query(`UPDATE "AuditLog" SET action = 'changed'`)).rejects.toThrow(/append-only/);
      await expect(c.query(`DELETE FROM "AuditLog"`)).rejects.toThrow(/append-only/);
      const { rows: left } = await c.query(`SELECT action FROM "AuditLog"`);
      expect(left).toEqual([{ action: "test.entry" }]);
    });
  });
});
