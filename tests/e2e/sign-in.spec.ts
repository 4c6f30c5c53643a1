import { expect, test } from "@playwright/test";
import { openNavGroup, signOut } from "./fixtures/shell";

test.describe("sign-in page and the console shell", () => {
  test("the sign-in page renders with its form and the environment badge", async ({ page }) => {
    await page.goto("/login");
    await expect(page).toHaveTitle("Sign in · Paydesk");
    await expect(page.getByRole("heading", { name: "Sign in to Paydesk" })).toBeVisible();
    await expect(page.getByLabel("Email")).toBeVisible();
    await expect(page.getByLabel("Password")).toBeVisible();
    await expect(page.getByTestId("environment-badge")).toHaveText("SANDBOX");
  });

  test("an unauthenticated visit to the shell redirects to sign-in and back after signing in", async ({
    page,
  }) => {
    await page.goto("/operations?status=success");
    await expect(page).toHaveURL(/\/login\?callbackUrl=%2Foperations%3Fstatus%3Dsuccess$/);
    await page.goto("/");
    await expect(page).toHaveURL(/\/login$/);
  });

  test("a wrong password is refused with a clear message and no session", async ({ page }) => {
    await page.goto("/login");
    await page.getByLabel("Email").fill("finance@paydesk.local");
    await page.getByLabel("Password").fill("not-the-password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "Wrong email, password or code." })).toBeVisible();
    await page.goto("/");
    await expect(page).toHaveURL(/\/login$/);
  });

  test("an invalid email is shown next to the field", async ({ page }) => {
    await page.goto("/login");
    await page.getByLabel("Email").fill("not-an-email");
    await page.getByLabel("Password").fill("x");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.locator("#email-error")).toHaveText("Enter the email address you sign in with.");
    await expect(page.getByLabel("Email")).toHaveAttribute("aria-invalid", "true");
  });

  test("a signed-in user sees the shell with navigation for their role, and can sign out", async ({
    page,
  }) => {
    await page.goto("/login");
    await page.getByLabel("Email").fill("support@paydesk.local");
    await page.getByLabel("Password").fill("paydesk-support-demo");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("heading", { name: "Welcome, Demo support" })).toBeVisible();
    await expect(page.getByTestId("current-user")).toHaveText("support@paydesk.local · support");
    const nav = page.getByRole("navigation", { name: "Main" });
    await expect(nav.getByRole("link", { name: "Operations" })).toBeVisible();
    await expect(nav.getByRole("link", { name: "Trace lookup" })).toBeVisible();
    await expect(nav.getByRole("link", { name: "Pay-outs" })).toHaveCount(0);
    await expect(nav.getByRole("link", { name: "Settings" })).toHaveCount(0);
    await signOut(page);
    await expect(page).toHaveURL(/\/login$/);
    await page.goto("/");
    await expect(page).toHaveURL(/\/login$/);
  });

  test("the shell is usable at phone width", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/login");
    await page.getByLabel("Email").fill("admin@paydesk.local");
    await page.getByLabel("Password").fill("paydesk-admin-demo");
    await page.getByRole("button", { name: "Sign in" }).click();
    await openNavGroup(page, "admin");
    await expect(
      page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Settings" }),
    ).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });

  test("repeated wrong passwords lock the account, even against the right password", async ({ page }) => {
    test.slow();
    await page.goto("/login");
    const attempt = async (password: string) => {
      await page.getByLabel("Email").fill("lockout@paydesk.local");
      await page.getByLabel("Password").fill(password);
      await page.getByRole("button", { name: "Sign in" }).click();
      await expect(page.getByRole("button", { name: "Sign in" })).toBeEnabled({ timeout: 15_000 });
    };
    // the fifth failure locks the account; then even the right password is not checked, and the
    // refusal reads as any other, saying how the lock works
    const refusal = page.getByRole("alert").filter({
      hasText:
        "Wrong email, password or code. After 5 failed attempts in a row, signing in to the account pauses for 15 minutes.",
    });
    for (let i = 0; i < 5; i++) {
      await attempt("wrong-password");
      await expect(refusal).toBeVisible();
    }
    await attempt("lockout-e2e-password");
    await expect(refusal).toBeVisible();
    await page.goto("/");
    await expect(page).toHaveURL(/\/login$/);
  });
});
