import { readFile } from "node:fs/promises";
import { expect, test, type Page } from "@playwright/test";
import type { Role } from "../../lib/auth/permissions";

// Started by scripts/e2e.ts: the app on a throw-away database with the fixture mirror and a sandbox
// without history of its own.

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
  await expect(page.getByRole("heading", { name: "Statements", exact: true })).toBeVisible();
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
  test.setTimeout(180_000);
  // The fixture mirror holds pay-outs the sandbox (no history of its own) never funded: to the proof that
  // is money that came in outside operations before the first read, 15.7594 USDT exactly (the fixture's
  // ledger: payInSuccess +15.6966, payOutSuccess -15.7280, payOutPendingRetry's hold -15.7280). Let such a
  // difference count after one minute instead of ten.
  await signIn(page, "admin");
  await page.goto("/settings");
  const label = "Treat a difference between the ledger and the platform's balance as lasting after (minutes)";
  await page.getByLabel(label).fill("1");
  await page
    .locator("form", { has: page.getByLabel(label) })
    .getByRole("button", { name: "Save" })
    .click();
  await expect(page.getByLabel(label)).toHaveValue("1");
  await page.context().clearCookies();

  await signIn(page, "finance");
  await page.goto("/balance");
  const proof = page.getByTestId("balance-proof");
  await expect(proof).toBeVisible();
  if ((await proof.getAttribute("data-state")) !== "matches") {
    // A difference is booked as a movement outside operations once a read that showed it is a minute
    // old. Other specs move the shared sandbox's balance too, each unexplained change a movement of its
    // own: every one is annotated as it is booked (the first as the top-up whose words the test checks),
    // until the ledger matches. The other specs' pages read the balance long before this one runs, so most
    // are due at once; the last of their changes may still take a minute to count.
    const movements = page.getByTestId("outside-movements");
    const unannotated = movements.getByRole("listitem").filter({ hasText: "not annotated" });
    let annotated = 0;
    await expect(async () => {
      await page.reload();
      for (; (await unannotated.count()) > 0 && annotated < 10; annotated++) {
        const item = unannotated.first();
        await item.getByLabel("Kind").selectOption(annotated === 0 ? "topUp" : "adjustment");
        await item.getByLabel("Reference").fill(annotated === 0 ? "Пополнение USDT" : `e2e ${annotated}`);
        await item.getByRole("button", { name: "Save" }).click();
        await expect(movements).toContainText(
          annotated === 0 ? "Top-up · Пополнение USDT" : `e2e ${annotated}`,
        );
      }
      expect(annotated).toBeGreaterThan(0);
      await expect(proof).toHaveAttribute("data-state", "matches", { timeout: 1_000 });
    }).toPass({ intervals: [5_500], timeout: 120_000 });
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
