// The upgrade rule of docs/deploy.md ("Upgrading"): no migration after the first may take away what the
// previous release's queries use, unless a `-- rolling-deploy:` comment says why it no longer does.
import { describe, expect, it } from "vitest";
import { readMigrations } from "../../../scripts/lib/migrations";
import { breakingStatements, splitStatements } from "../../../scripts/lib/rolling-deploy";

const breaks = (sql: string) => breakingStatements(sql).map((b) => b.breaks);

// Applied before this test existed and read by hand; applied migrations are never edited, so the reason
// is kept here instead of in a `-- rolling-deploy:` comment.
const reviewed: Record<string, string> = {
  "20261124091000_ledger_bucket_stripe_per_connection: DROP FUNCTION ledger_bucket_stripe(uuid)":
    "only the buckets' trigger function called it, and the same migration replaces that function",
};

describe("breakingStatements", () => {
  it.each([
    [`DROP TABLE "Old";`, "drops what the previous release may read"],
    [`DROP TYPE "Kind";`, "drops what the previous release may read"],
    [`ALTER TABLE "Operation" DROP COLUMN "raw";`, "drops a column"],
    [`ALTER TABLE "Operation" RENAME COLUMN "raw" TO "body";`, "renames what the previous release names"],
    [`ALTER TABLE "Operation" RENAME TO "Op";`, "renames what the previous release names"],
    [`ALTER TYPE "Kind" RENAME VALUE 'a' TO 'b';`, "renames what the previous release names"],
    [`ALTER TABLE "Operation" ALTER COLUMN "amount" SET DATA TYPE TEXT;`, "changes a column's type in place"],
    [`ALTER TABLE "Operation" ALTER "amount" TYPE TEXT;`, "changes a column's type in place"],
    [`ALTER TABLE "Operation" ALTER COLUMN "currency" SET NOT NULL;`, "makes a column required"],
    [
      `ALTER TABLE "Operation" ADD COLUMN "note" TEXT, ADD COLUMN "kind" TEXT NOT NULL;`,
      "adds a required column without a default",
    ],
    [`ALTER TABLE "Bank" DROP CONSTRAINT "Bank_pkey";`, "drops a constraint the previous release may name"],
    [`DROP FUNCTION ledger_total(uuid[]);`, "drops a function the previous release may call"],
  ])("%s %s", (sql, expected) => {
    expect(breaks(sql)).toEqual([expected]);
  });

  it.each([
    `CREATE TABLE "New" ("id" UUID NOT NULL, CONSTRAINT "New_pkey" PRIMARY KEY ("id"));`,
    `ALTER TABLE "Operation" ADD COLUMN "seen" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP;`,
    `ALTER TABLE "Operation" ADD COLUMN "note" TEXT;`,
    `ALTER TABLE "DriftItem" ALTER COLUMN "runId" DROP NOT NULL, ALTER COLUMN "kind" DROP DEFAULT;`,
    `ALTER TYPE "Kind" ADD VALUE 'c';`,
    `DROP INDEX "Operation_status_idx"; CREATE INDEX "Operation_status_idx2" ON "Operation"("status");`,
    `ALTER TABLE "B" DROP CONSTRAINT "B_pkey", ADD COLUMN "s" SMALLINT NOT NULL DEFAULT 0, ADD CONSTRAINT "B_pkey" PRIMARY KEY ("a", "s");`,
    // Re-created with the old call still valid (a new parameter with a default).
    `DROP FUNCTION ledger_total(uuid[]); CREATE FUNCTION ledger_total(ids uuid[], more uuid[] DEFAULT '{}') RETURNS void LANGUAGE sql AS $$ SELECT 1 $$;`,
    `DROP FUNCTION pg_temp.note(text);`,
    // Words inside bodies, strings and comments are not statements.
    `CREATE FUNCTION f() RETURNS void LANGUAGE plpgsql AS $body$ BEGIN DROP TABLE t; END $body$;`,
    `COMMENT ON TABLE "Operation" IS 'we never DROP COLUMN here; it''s RENAME-free';`,
    `-- ALTER TABLE "Operation" DROP COLUMN "raw";\nSELECT 1;`,
    `/* DROP TABLE "Operation"; */ SELECT 1;`,
    // The second release of a two-release change says why the column is unused.
    `-- rolling-deploy: no release since 2026-12-01 reads "legacy"\nALTER TABLE "Operation" DROP COLUMN "legacy";`,
  ])("passes %s", (sql) => {
    expect(breaks(sql)).toEqual([]);
  });

  it("marks only the statement right after the comment", () => {
    const sql = `-- rolling-deploy: unused since 2026-12-01\nALTER TABLE "A" DROP COLUMN "x";\nALTER TABLE "A" DROP COLUMN "y";`;
    expect(breakingStatements(sql)).toEqual([
      { statement: `ALTER TABLE "A" DROP COLUMN "y"`, breaks: "drops a column" },
    ]);
    expect(splitStatements(sql).map((s) => s.allowed)).toEqual([true, false]);
  });

  it("a mark without a reason marks nothing", () => {
    expect(breaks(`-- rolling-deploy:\nALTER TABLE "A" DROP COLUMN "x";`)).toEqual(["drops a column"]);
  });
});

describe("the project's migrations", () => {
  it("take nothing away from the previous release (every migration after the first)", async () => {
    const [first, ...later] = await readMigrations();
    expect(first?.name).toMatch(/_init$/);
    expect(later.length).toBeGreaterThan(20);
    const found = later.flatMap((m) =>
      breakingStatements(m.sql)
        .map((b) => ({ ...b, where: `${m.name}: ${b.statement}` }))
        .filter((b) => !(b.where in reviewed))
        .map((b) => `${b.where}: ${b.breaks}`),
    );
    expect(found).toEqual([]);
    // Each reviewed statement is still there (a reason for nothing is dropped with it).
    const all = later.flatMap((m) => breakingStatements(m.sql).map((b) => `${m.name}: ${b.statement}`));
    expect(all.filter((w) => w in reviewed).sort()).toEqual(Object.keys(reviewed).sort());
  });
});
