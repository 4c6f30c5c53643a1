import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    alias: {
      "@": fileURLToPath(new URL(".", import.meta.url)),
      // `server-only` throws outside a React Server bundle; in Node tests every module is server-side.
      "server-only": fileURLToPath(new URL("./tests/setup/server-only.ts", import.meta.url)),
      // next-intl's server functions throw outside Next's server bundle; tests call pages directly.
      "next-intl/server": fileURLToPath(new URL("./tests/setup/next-intl-server.ts", import.meta.url)),
    },
  },
  test: {
    include: ["tests/unit/**/*.test.ts", "tests/integration/**/*.test.ts"],
    globalSetup: ["tests/setup/global.ts"],
    setupFiles: ["tests/setup/env.ts", "tests/setup/shared-database.ts"],
    pool: "forks",
    // Two files at once: most files wait on PostgreSQL, child processes or timers, and a second fork
    // fills those waits (on two cores the run 656 → 496 s). Vitest's default leaves a core free: one file
    // at a time here. More forks were not measured (each isolated file has a database and processes of
    // its own). A file on the shared test database still has it to itself (tests/setup/shared-database.ts).
    maxWorkers: 2,
    // next-auth imports `next/headers` without an extension (Node's ESM resolver refuses that) and the
    // sign-in tests replace `next/headers`: both need vite to load it rather than Node.
    server: { deps: { inline: ["next-auth"] } },
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
