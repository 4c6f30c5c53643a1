// Security review findings that need a real browser: the open redirect after sign-in (the browser, not
// the server, turns `/\evil.example` into another host) and a session cookie replayed after sign-out.
import { expect, test, type Page } from "@playwright/test";
import { signOut } from "./fixtures/shell";

const appOrigin = new URL(process.env.E2E_BASE_URL ?? "http://127.0.0.1:3000").origin;

async function signIn(page: Page, email: string, password: string) {
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

test.describe("after sign-in the browser stays on the app's origin", () => {
  for (const callbackUrl of [
    "/\\evil.example/x",
    "/\t/evil.example/x",
    "//evil.example/x",
    "/.//evil.example/x",
  ]) {
    test(`callbackUrl=${JSON.stringify(callbackUrl)}`, async ({ page }) => {
      // Never reach the network: a page that says where the browser went.
      await page.route(
        (url) => url.hostname === "evil.example",
        (route) => route.fulfill({ status: 200, body: "evil" }),
      );
      await page.goto(`/login?callbackUrl=${encodeURIComponent(callbackUrl)}`);
      await signIn(page, "finance@paydesk.local", "paydesk-finance-demo");
      await page.waitForURL((url) => !url.pathname.startsWith("/login"));
      expect(new URL(page.url()).origin).toBe(appOrigin);
      await expect(page.getByRole("heading", { name: "Welcome, Demo finance" })).toBeVisible();
    });
  }

  test("a same-origin callbackUrl is still followed", async ({ page }) => {
    await page.goto(`/login?callbackUrl=${encodeURIComponent("/operations?status=success")}`);
    await signIn(page, "finance@paydesk.local", "paydesk-finance-demo");
    await expect(page).toHaveURL(`${appOrigin}/operations?status=success`);
  });
});

test("a session cookie captured before sign-out no longer works after it", async ({ page, context }) => {
  await page.goto("/login");
  await signIn(page, "support@paydesk.local", "paydesk-support-demo");
  await expect(page.getByRole("heading", { name: "Welcome, Demo support" })).toBeVisible();
  const captured = (await context.cookies()).filter((c) => c.name.includes("authjs.session-token"));
  expect(captured.length).toBeGreaterThan(0);

  await signOut(page);
  await expect(page).toHaveURL(/\/login$/);

  await context.addCookies(captured);
  await page.goto("/");
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole("heading", { name: "Sign in to Paydesk" })).toBeVisible();
});
