import { defineConfig } from "@playwright/test";

// Started by scripts/e2e.ts (npm run test:e2e), which builds and serves the app and sets these variables.
const baseURL = process.env.E2E_BASE_URL ?? "http://127.0.0.1:3000";
const executablePath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: true,
  workers: 2,
  retries: 0,
  timeout: 30_000,
  reporter: [["list"]],
  // The two-factor spec turns the policy on for the approver role: it runs after every other spec, whose
  // demo users sign in with a password alone.
  projects: [
    { name: "console", testIgnore: /two-factor\.spec\.ts$/ },
    { name: "two-factor", testMatch: /two-factor\.spec\.ts$/, dependencies: ["console"] },
  ],
  use: {
    baseURL,
    browserName: "chromium",
    trace: "retain-on-failure",
    launchOptions: {
      executablePath,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
});
