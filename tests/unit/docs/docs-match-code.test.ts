// The deployment guide promises every environment variable (docs/deploy.md → Environment variables):
// each one lib/env.ts reads is a row of its table, with the default the schema really has; and the README
// says .env.example documents each one. And the README's table of scripts has every npm script.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { envSchema, parseEnv } from "@/lib/env";

const read = (file: string) => readFileSync(path.join(import.meta.dirname, "../../..", file), "utf8");
const guide = read("docs/deploy.md");

/** The text under a markdown `## heading`, up to the next one. */
const section = (text: string, heading: string) => text.split(`## ${heading}`)[1]?.split("\n## ")[0] ?? "";

/** The table's rows: each variable named in its first cell, with the row's default cell. */
function tableRows(): Map<string, string> {
  const rows = new Map<string, string>();
  for (const line of section(guide, "Environment variables").split("\n")) {
    const cells = line.split("|").map((c) => c.trim());
    if (cells.length < 5) continue;
    for (const [, name] of cells[1]!.matchAll(/`([A-Z0-9_]+)`/g)) rows.set(name!, cells[3]!);
  }
  return rows;
}

// Set by the scripts themselves (npm start, npm run dev), or for the browser tests only; said below the table.
const NOT_IN_TABLE = ["NODE_ENV", "E2E_ERROR_PROBE"];

const required = {
  DATABASE_URL: "postgresql://u:p@localhost:5432/db",
  PLATFORM_BASE_URL: "https://platform.example",
  PLATFORM_TOKEN: "token",
  AUTH_SECRET: "x".repeat(32),
};

describe("docs/deploy.md, Environment variables", () => {
  const rows = tableRows();

  it("has a row for every variable lib/env.ts reads", () => {
    const variables = Object.keys(envSchema.shape).filter((v) => !NOT_IN_TABLE.includes(v));
    expect(variables.filter((v) => !rows.has(v))).toEqual([]);
    for (const v of NOT_IN_TABLE) expect(guide).toContain(`\`${v}\``);
  });

  it("names no variable lib/env.ts does not read, besides the web server's PORT", () => {
    const known = new Set([...Object.keys(envSchema.shape), "PORT"]);
    expect([...rows.keys()].filter((v) => !known.has(v))).toEqual([]);
  });

  it("says yes for exactly the variables without which the process does not start", () => {
    const yes = [...rows.keys()].filter((v) => guide.match(new RegExp(`\\| \`${v}\`\\s+\\| yes`)));
    expect(yes.sort()).toEqual(Object.keys(required).sort());
    for (const v of yes) {
      const { [v]: _missing, ...rest } = required as Record<string, string>;
      expect(() => parseEnv(rest), v).toThrow(new RegExp(v));
    }
  });

  it("gives each default the schema has", () => {
    const env = parseEnv(required) as Record<string, unknown>;
    for (const [v, cell] of rows) {
      if (v in required || env[v] === undefined) continue;
      const value = env[v];
      const shown = Array.isArray(value) ? (value.length ? value.join(",") : "empty") : String(value);
      expect(cell.replace(/ \(.*\)$/, ""), v).toBe(shown);
    }
  });
});

describe(".env.example", () => {
  it("names every variable lib/env.ts reads, besides NODE_ENV (the scripts set it)", () => {
    const example = read(".env.example");
    const named = (v: string) => new RegExp(`^#?\\s*${v}=`, "m").test(example);
    expect(Object.keys(envSchema.shape).filter((v) => v !== "NODE_ENV" && !named(v))).toEqual([]);
  });
});

describe("README, Scripts", () => {
  it("has every npm script of package.json (postinstall runs by itself)", () => {
    const scripts = Object.keys(JSON.parse(read("package.json")).scripts as Record<string, string>);
    const table = section(read("README.md"), "Scripts");
    const shown = (name: string) =>
      table.includes(`\`npm run ${name}`) ||
      (["test", "start"].includes(name) && table.includes(`\`npm ${name}\``));
    expect(scripts.filter((s) => s !== "postinstall" && !shown(s))).toEqual([]);
  });
});
