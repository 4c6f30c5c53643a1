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
    setupFiles: ["tests/setup/env.ts"],
    pool: "forks",
    // next-auth imports `next/headers` without an extension (Node's ESM resolver refuses that) and the
    // sign-in tests replace `next/headers`: both need vite to load it rather than Node.
    server: { deps: { inline: ["next-auth"] } },
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
