// `npm run db:migrate` as a release job runs it. Without DATABASE_URL it used to migrate a local embedded
// PostgreSQL in .data/postgres and exit 0: a job whose secret was not mounted reported success and the
// release started on the real, unmigrated database. Now it refuses (always under NODE_ENV=production;
// otherwise unless given --embedded), and it names the database it migrates, never with its password.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { projectRoot } from "../../../scripts/lib/database";
import { createScratchDatabase, withClient } from "../../support/database";

const embeddedDir = path.join(projectRoot, ".data/postgres");

async function runMigrate(args: string[], env: Record<string, string | undefined>) {
  const { DATABASE_URL: _shared, NODE_ENV: _mode, ...inherited } = process.env;
  const child = spawn(
    process.execPath,
    ["--conditions=react-server", "--import", "tsx", path.join(projectRoot, "scripts/migrate.ts"), ...args],
    {
      cwd: projectRoot,
      env: { ...inherited, ...env } as NodeJS.ProcessEnv,
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const [code] = (await once(child, "exit")) as [number | null];
  return { code, stdout, stderr };
}

describe("npm run db:migrate", () => {
  let hadEmbedded: boolean;
  beforeEach(() => {
    hadEmbedded = existsSync(embeddedDir);
  });
  afterEach(() => {
    // whatever the outcome, no embedded database appeared in the project for it
    if (!hadEmbedded) expect(existsSync(embeddedDir)).toBe(false);
  });

  it("refuses without DATABASE_URL under NODE_ENV=production, even with --embedded", async () => {
    for (const args of [[], ["--embedded"]]) {
      const { code, stdout, stderr } = await runMigrate(args, { NODE_ENV: "production" });
      expect(code).toBe(1);
      expect(stderr).toMatch(/^DATABASE_URL is not set \(NODE_ENV=production\): nothing migrated\./);
      expect(stdout).toBe("");
    }
  }, 60_000);

  it("refuses without DATABASE_URL and without --embedded, saying how to migrate the embedded database", async () => {
    const { code, stdout, stderr } = await runMigrate([], {});
    expect(code).toBe(1);
    expect(stderr).toMatch(/^DATABASE_URL is not set: nothing migrated\./);
    expect(stderr).toContain("npm run db:migrate -- --embedded");
    expect(stdout).toBe("");
  }, 60_000);

  it("refuses --embedded together with DATABASE_URL, and an unknown option", async () => {
    const both = await runMigrate(["--embedded"], { DATABASE_URL: "postgresql://u:p@127.0.0.1:1/x" });
    expect([both.code, both.stderr]).toEqual([1, expect.stringMatching(/^--embedded migrates the embedded/)]);
    const typo = await runMigrate(["--embeded"], {});
    expect(typo.code).toBe(1);
    expect(typo.stderr).toMatch(/^Unknown option '--embeded'.*\nusage: npm run db:migrate/s);
    expect(typo.stderr).not.toMatch(/^\s+at /m);
  }, 60_000);

  describe("with DATABASE_URL", () => {
    let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
    beforeEach(async () => {
      scratch = await createScratchDatabase();
    });
    afterEach(() => scratch.drop());

    it("names the database it migrates (database, host, port, user), never the password", async () => {
      const url = new URL(scratch.url);
      expect(url.password).not.toBe("");
      const { code, stdout, stderr } = await runMigrate([], {
        DATABASE_URL: scratch.url,
        NODE_ENV: "production",
      });
      expect([code, stderr]).toEqual([0, ""]);
      const database = url.pathname.slice(1);
      expect(stdout.split("\n")[0]).toBe(
        `migrating database ${database} on ${url.hostname}:${url.port} as ${url.username} (DATABASE_URL)`,
      );
      expect(stdout).toMatch(/migrations: \d+ applied, 0 already applied/);
      expect(stdout + stderr).not.toContain(url.password);
      const applied = await withClient(scratch.url, (c) => c.query(`SELECT 1 FROM "_prisma_migrations"`));
      expect(applied.rowCount).toBeGreaterThan(0);
    }, 60_000);
  });
});
