// Mutation testing (issue 11), run by scripts/mutation/run.mjs; Stryker is not a dependency of the app
// (run.mjs installs it into .mutation/tool). One group of source files against the test files that exercise them:
//   MUT_NAME=<group> MUT_FILES='lib/x/**/*.ts' MUT_TESTS='tests/a.test.ts,...' stryker run <this file>
// Reports go to .mutation/<group>.{json,html}; see docs/mutation.md.
import path from "node:path";

const name = process.env.MUT_NAME ?? "run";
const out = path.resolve(process.env.MUT_OUT ?? ".mutation");
const split = (v) =>
  (v ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);

const config = {
  packageManager: "npm",
  testRunner: "vitest",
  plugins: ["@stryker-mutator/vitest-runner"],
  vitest: { configFile: path.resolve("scripts/mutation/vitest.config.mjs"), related: true },
  coverageAnalysis: "perTest",
  mutate: split(process.env.MUT_FILES),
  ignorePatterns: [".next", ".data", ".mutation", "tests/e2e", "tests/bench", "bench-results", "coverage"],
  // One runner: the integration tests share one PostgreSQL, and two runners lost per-test coverage here.
  concurrency: Number(process.env.MUT_CONCURRENCY ?? 1),
  timeoutMS: 60_000,
  timeoutFactor: 3,
  dryRunTimeoutMinutes: 60,
  tempDirName: path.join(out, `tmp-${name}`),
  cleanTempDir: "always",
  reporters: ["clear-text", "progress-append-only", "json", "html"],
  jsonReporter: { fileName: path.join(out, `${name}.json`) },
  htmlReporter: { fileName: path.join(out, `${name}.html`) },
  clearTextReporter: { allowColor: false, logTests: false, maxTestsToLog: 0 },
  thresholds: { high: 90, low: 80, break: null },
};
export default config;
