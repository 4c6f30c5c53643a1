// The migration that adds User.passwordSetById (prisma/migrations/20261126005325_password_set_by) fills
// it for users made before it, from the audit log: a database migrated up to the one before, holding
// users and their audit entries as the console and the command line wrote them, then the migration's
// file applied by the project's runner (scripts/lib/migrations.ts), as a deploy would.
import { randomUUID } from "node:crypto";
import { cp, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type pg from "pg";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { defaultMigrationsDir, migrate, readMigrations } from "../../../scripts/lib/migrations";
import { createScratchDatabase, withClient } from "../../support/database";

const MIGRATION = "20261126005325_password_set_by";

let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
let dir: string;

beforeEach(async () => {
  scratch = await createScratchDatabase();
  dir = await mkdtemp(path.join(os.tmpdir(), "paydesk-password-set-by-"));
  // every migration before this one: the database as the previous release left it
  for (const m of await readMigrations()) {
    if (m.name >= MIGRATION) continue;
    await cp(path.join(defaultMigrationsDir, m.name), path.join(dir, m.name), { recursive: true });
  }
  await cp(path.join(defaultMigrationsDir, "migration_lock.toml"), path.join(dir, "migration_lock.toml"));
  await migrate(scratch.url, { dir });
});

afterEach(async () => {
  await scratch.drop();
  await rm(dir, { recursive: true, force: true });
});

async function user(c: pg.Client, role: string): Promise<string> {
  const id = randomUUID();
  await c.query(`INSERT INTO "User" (id, email, role, "updatedAt") VALUES ($1, $2, $3, now())`, [
    id,
    `${role}-${id}@test.local`,
    role,
  ]);
  return id;
}

/** An audit entry as lib/audit/log.ts writes it; `actor` null is the command line (cliActor). */
async function entry(
  c: pg.Client,
  at: string,
  action: string,
  actor: string | null,
  targetId: string,
  targetType = "user",
) {
  await c.query(
    `INSERT INTO "AuditLog" (at, "actorUserId", "actorEmail", action, "targetType", "targetId")
     VALUES ($1, $2, $3, $4, $5, $6)`,
    [at, actor, actor === null ? "cli" : "admin@test.local", action, targetType, targetId],
  );
}

describe(`${MIGRATION}: who last set each password, from the audit log`, () => {
  it("the admin of the newest create or reset; the command line's and one's own stay null", async () => {
    const ids = await withClient(scratch.url, async (c) => {
      const first = await user(c, "admin"); // from the command line
      const second = await user(c, "admin"); // made by the first admin
      const finance = await user(c, "finance"); // made by the first admin
      const approver = await user(c, "approver"); // made by the first admin, reset by the second
      const resetByCli = await user(c, "finance"); // made by an admin, reset from the command line
      const cliOnly = await user(c, "approver"); // made and never reset from the command line
      const capitalType = await user(c, "support"); // an entry typed "User", as preferences wrote
      const ownReset = await user(c, "admin"); // made by the first admin, reset their own password
      const noEntry = await user(c, "approver"); // no audit entry at all
      await entry(c, "2026-01-01T10:00:00Z", "user.create", null, first);
      await entry(c, "2026-01-01T10:01:00Z", "user.create", first, second);
      await entry(c, "2026-01-01T10:02:00Z", "user.create", first, finance);
      await entry(c, "2026-01-01T10:03:00Z", "user.create", first, approver);
      await entry(c, "2026-01-02T09:00:00Z", "user.resetPassword", second, approver);
      // newer entries of other actions say nothing about the password
      await entry(c, "2026-01-03T09:00:00Z", "user.setRole", second, finance);
      await entry(c, "2026-01-03T09:01:00Z", "user.disable", second, finance);
      await entry(c, "2026-01-01T10:04:00Z", "user.create", first, resetByCli);
      await entry(c, "2026-01-02T09:01:00Z", "user.resetPassword", null, resetByCli);
      await entry(c, "2026-01-01T10:05:00Z", "user.create", null, cliOnly);
      await entry(c, "2026-01-01T10:06:00Z", "user.create", first, capitalType, "User");
      await entry(c, "2026-01-01T10:07:00Z", "user.create", first, ownReset);
      await entry(c, "2026-01-02T09:02:00Z", "user.resetPassword", ownReset, ownReset);
      // entries about other things, or whose target is not a uuid, are never cast
      await entry(c, "2026-01-04T00:00:00Z", "user.resetPassword", first, "not-a-uuid");
      await entry(c, "2026-01-04T00:00:01Z", "user.create", first, "");
      await entry(c, "2026-01-04T00:00:02Z", "user.resetPassword", second, finance, "payoutRequest");
      return { first, second, finance, approver, resetByCli, cliOnly, capitalType, ownReset, noEntry };
    });

    await cp(path.join(defaultMigrationsDir, MIGRATION), path.join(dir, MIGRATION), { recursive: true });
    expect((await migrate(scratch.url, { dir })).applied).toContain(MIGRATION);

    const setBy = await withClient(scratch.url, async (c) => {
      const { rows } = await c.query<{ id: string; passwordSetById: string | null }>(
        `SELECT id, "passwordSetById" FROM "User"`,
      );
      return Object.fromEntries(rows.map((r) => [r.id, r.passwordSetById]));
    });
    expect(setBy).toEqual({
      [ids.first]: null,
      [ids.second]: ids.first,
      [ids.finance]: ids.first,
      [ids.approver]: ids.second,
      [ids.resetByCli]: null,
      [ids.cliOnly]: null,
      [ids.capitalType]: ids.first,
      [ids.ownReset]: null,
      [ids.noEntry]: null,
    });
  });

  it("applies to a database with no users", async () => {
    await cp(path.join(defaultMigrationsDir, MIGRATION), path.join(dir, MIGRATION), { recursive: true });
    expect((await migrate(scratch.url, { dir })).applied).toContain(MIGRATION);
  });
});
