// Vitest config for the mutation runs (scripts/mutation/stryker.config.mjs). It mirrors the repo's vitest.config.ts
// with the root at the Stryker sandbox (the runner's working directory) and `include` limited to the
// test files listed in MUT_TESTS (comma-separated), so Stryker's `testFiles` option (which breaks
// static-mutant activation in @stryker-mutator/core 9.6) is not needed.
import path from "node:path";
const root = process.cwd();
// Files that failed last time first (a test that killed the last mutant likely kills the next one), then
// the quickest first, unit before integration: with bail, a killed static mutant stops early.
class QuickFirstSequencer {
  constructor(ctx) {
    this.ctx = ctx;
  }
  async shard(files) {
    return files;
  }
  async sort(files) {
    const cache = this.ctx.cache;
    const info = (spec) => {
      const key = `${spec.project.name}:${path.relative(this.ctx.config.root, spec.moduleId)}`;
      const state = cache.getFileTestResults(key);
      const unit = spec.moduleId.includes("/tests/unit/") ? 0 : 1;
      return {
        failed: state?.failed ? 0 : 1,
        duration: state?.duration ?? 0,
        unit,
        size: cache.getFileStats(key)?.size ?? 0,
      };
    };
    return [...files]
      .map((spec) => ({ spec, i: info(spec) }))
      .sort(
        (a, b) =>
          a.i.failed - b.i.failed ||
          a.i.unit - b.i.unit ||
          a.i.duration - b.i.duration ||
          a.i.size - b.i.size,
      )
      .map(({ spec }) => spec);
  }
}
const include = (process.env.MUT_TESTS ?? "")
  .split(",")
  .map((s) => s.trim())
  .filter(Boolean);
const config = {
  root,
  resolve: {
    alias: {
      "@": root,
      "server-only": path.join(root, "tests/setup/server-only.ts"),
      "next-intl/server": path.join(root, "tests/setup/next-intl-server.ts"),
    },
  },
  test: {
    root,
    include: include.length ? include : ["tests/unit/**/*.test.ts", "tests/integration/**/*.test.ts"],
    globalSetup: ["tests/setup/global.ts"],
    setupFiles: ["tests/setup/env.ts"],
    pool: "forks",
    sequence: { sequencer: QuickFirstSequencer },
    server: { deps: { inline: ["next-auth"] } },
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
};
export default config;
