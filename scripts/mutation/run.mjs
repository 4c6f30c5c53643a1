#!/usr/bin/env node
// Mutation testing of the core modules (issue 11): `node scripts/mutation/run.mjs [group ...]` runs
// Stryker for each group of scripts/mutation/groups.json (all when none is named), one after another,
// then prints the score of every file and of every module from the reports in .mutation/.
// `node scripts/mutation/run.mjs --report` only prints the table of the reports already there.
// Stryker is installed at pinned versions into .mutation/tool on first use; it is not a dependency of
// the app. See docs/mutation.md.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

const here = path.dirname(new URL(import.meta.url).pathname);
const out = path.resolve(process.env.MUT_OUT ?? ".mutation");
// Stryker with its peers at the project's versions, installed once beside the reports (not an app dependency).
const tool = path.join(out, "tool");
const stryker = path.join(tool, "node_modules/.bin/stryker");
const { devDependencies: dev } = JSON.parse(readFileSync(path.join(here, "../../package.json"), "utf8"));
const TOOL_PACKAGES = [
  "@stryker-mutator/core@9.6.1",
  "@stryker-mutator/vitest-runner@9.6.1",
  `typescript@${dev.typescript}`,
  `vitest@${dev.vitest}`,
];
const groups = JSON.parse(readFileSync(path.join(here, "groups.json"), "utf8"));
const MODULES = ["lib/auth", "lib/payouts", "lib/platform", "lib/money", "lib/operations"];

const args = process.argv.slice(2);
const reportOnly = args.includes("--report");
const names = args.filter((a) => !a.startsWith("--"));
for (const name of names) {
  if (!groups[name]) {
    console.error(`unknown group ${name}; groups: ${Object.keys(groups).join(", ")}`);
    process.exit(2);
  }
}
const chosen = names.length ? names : Object.keys(groups);

if (!reportOnly && !existsSync(stryker)) {
  mkdirSync(tool, { recursive: true });
  writeFileSync(path.join(tool, "package.json"), "{}\n");
  const install = spawnSync(
    "npm",
    ["install", "--prefix", tool, "--no-audit", "--no-fund", ...TOOL_PACKAGES],
    {
      stdio: "inherit",
    },
  );
  if (install.status !== 0) process.exit(install.status ?? 1);
}

if (!reportOnly) {
  for (const name of chosen) {
    const { mutate, tests } = groups[name];
    const started = Date.now();
    console.log(`\n== ${name}: ${mutate.join(", ")} against ${tests.length} test files`);
    const run = spawnSync(stryker, ["run", path.join(here, "stryker.config.mjs")], {
      stdio: "inherit",
      env: {
        ...process.env,
        NEXT_TELEMETRY_DISABLED: "1",
        MUT_NAME: name,
        MUT_OUT: out,
        MUT_FILES: mutate.join(","),
        MUT_TESTS: tests.join(","),
      },
    });
    console.log(`== ${name}: exit ${run.status} in ${Math.round((Date.now() - started) / 1000)} s`);
  }
}

// A mutant counts as caught when a test failed (killed) or the run hung (timeout); uncovered ones count
// against the score, as Stryker counts them.
const totals = new Map();
const add = (key, status) => {
  const c = totals.get(key) ?? { caught: 0, survived: 0, uncovered: 0 };
  if (status === "Killed" || status === "Timeout") c.caught++;
  else if (status === "Survived") c.survived++;
  else if (status === "NoCoverage") c.uncovered++;
  totals.set(key, c);
};
for (const name of Object.keys(groups)) {
  const file = path.join(out, `${name}.json`);
  if (!existsSync(file)) continue;
  const report = JSON.parse(readFileSync(file, "utf8"));
  for (const [source, { mutants }] of Object.entries(report.files)) {
    const owner = MODULES.find((m) => source.startsWith(`${m}/`)) ?? "other";
    for (const m of mutants) {
      add(source, m.status);
      add(`module ${owner}`, m.status);
    }
  }
}
const score = (c) => {
  const valid = c.caught + c.survived + c.uncovered;
  return valid ? `${((100 * c.caught) / valid).toFixed(2)} %` : "-";
};
console.log("\n| file or module | caught | survived | not covered | score |\n|---|---|---|---|---|");
const keys = [...totals.keys()].sort(
  (a, b) => Number(a.startsWith("module")) - Number(b.startsWith("module")) || a.localeCompare(b),
);
for (const key of keys) {
  const c = totals.get(key);
  console.log(`| ${key} | ${c.caught} | ${c.survived} | ${c.uncovered} | ${score(c)} |`);
}
