import { randomUUID } from "node:crypto";
import { expect, test, type Page } from "@playwright/test";
import type { Role } from "../../lib/auth/permissions";

// Administration, pay-ins and links, settings, webhook inbox, reconciliation and home, in Chromium
// against the sandbox (scripts/e2e.ts). Other specs share the database: names and emails are unique.

async function signIn(page: Page, role: Role) {
  await signInWith(page, `${role}@paydesk.local`, `paydesk-${role}-demo`);
}

async function signInWith(page: Page, email: string, password: string) {
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("current-user")).toBeAttached();
}

async function fillClient(page: Page, amount = "1500.50") {
  await page.getByLabel("Amount").fill(amount);
  await page.getByLabel("Client id (in your system)").fill(`shop-client-${randomUUID().slice(0, 8)}`);
  await page.getByLabel("Client IP address").fill("85.143.12.7");
  await page.getByLabel("Client registered on").fill("2023-04-01");
}

test("admin creates a user, changes the role, disables them and their session ends", async ({
  page,
  browser,
}) => {
  const email = `e2e-${randomUUID()}@paydesk.test`;
  const password = `pw-${randomUUID()}`;
  await signIn(page, "admin");
  await page.goto("/admin/users");
  await expect(page.getByRole("heading", { name: "Users" })).toBeVisible();

  // bad input first: a clear message, nothing created
  await page.getByLabel("Email").fill("not-an-email@");
  await page.getByLabel("Password (empty: generate)").fill("short");
  await page.getByRole("button", { name: "Create user" }).click();
  await expect(page.getByTestId("create-user-result")).toContainText("Check the highlighted fields.");
  await expect(page.locator("#password-error")).toContainText("at least 12 characters");

  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Name", { exact: true }).fill("E2E Person");
  await page.getByLabel("Role", { exact: true }).selectOption("support");
  await page.getByLabel("Password (empty: generate)").fill(password);
  await page.getByRole("button", { name: "Create user" }).click();
  await expect(page.getByTestId("create-user-result")).toContainText(`Created ${email} (support).`);
  const row = page.locator(`[data-testid="user-row"][data-email="${email}"]`);
  await expect(row).toBeVisible();

  // the new user signs in elsewhere
  const other = await browser.newContext();
  const theirPage = await other.newPage();
  await signInWith(theirPage, email, password);

  await row.getByLabel(`Role of ${email}`).selectOption("finance");
  await expect(row.getByRole("status")).toHaveText("Role changed to finance.");
  page.once("dialog", (dialog) => void dialog.accept());
  await row.getByRole("button", { name: "Disable" }).click();
  await expect(row.getByTestId("user-state")).toHaveText("disabled");

  await theirPage.goto("/operations");
  await expect(theirPage).toHaveURL(/\/login/);
  await other.close();

  await page.goto(`/admin/audit?target=user`);
  await expect(page.getByTestId("audit-row").filter({ hasText: "user.disable" }).first()).toBeVisible();
  await expect(page.getByRole("link", { name: "Export CSV" })).toBeVisible();
});

test("finance creates a pay-in: the details are shown once, marked single-use", async ({ page }) => {
  await signIn(page, "finance");
  await page.goto("/payins");
  await fillClient(page, "10.12345");
  await page.getByRole("button", { name: "Create pay-in" }).click();
  await expect(page.locator("#amount-error")).toHaveText("Use at most 4 digits after the decimal point.");
  await expect(page.getByTestId("payin-details")).toHaveCount(0);

  await fillClient(page);
  await page.getByLabel("Payment method").selectOption("sbp");
  await page.getByRole("button", { name: "Create pay-in" }).click();
  const details = page.getByTestId("payin-details");
  await expect(details).toBeVisible();
  await expect(details.getByTestId("single-use")).toContainText("Single-use: valid for this operation only");
  const number = (await details.getByTestId("details-number").textContent())?.trim() ?? "";
  expect(number.length).toBeGreaterThan(5);
  await expect(details.getByRole("button", { name: /reuse/i })).toHaveCount(0);

  // following the operation: it is in the mirror like any other; the form does not offer the details again
  await details.getByRole("link").first().click();
  await expect(page).toHaveURL(/\/operations\/[0-9a-f-]{36}/);
  await page.goto("/payins");
  await expect(page.getByTestId("payin-details")).toHaveCount(0);
  await expect(page.locator("body")).not.toContainText(number);
});

test("finance creates payment links: the link with copy and a QR code", async ({ page }) => {
  await signIn(page, "finance");
  await page.goto("/payins");
  await page.getByLabel("Payment link: client chooses the method").check();
  await expect(page.getByLabel("Payment method")).toHaveCount(0);
  await fillClient(page, "250");
  await page.getByRole("button", { name: "Create payment link" }).click();
  const link = page.getByTestId("payment-link");
  await expect(link.getByTestId("link-url")).toHaveText(/^https?:\/\//);
  await expect(link.getByTestId("link-qr")).toBeVisible();
  await expect(link.getByRole("button", { name: "Copy link" })).toBeVisible();

  await page.getByLabel("Payment link: fixed method").check();
  await page.getByLabel("Payment method").selectOption("toCard");
  await fillClient(page, "99.99");
  await page.getByRole("button", { name: "Create payment link" }).click();
  await expect(page.getByTestId("payment-link").getByTestId("link-qr")).toBeVisible();
});

test("admin tests the platform connection and sees the webhook URL, never the tokens", async ({ page }) => {
  await signIn(page, "admin");
  await page.goto("/settings");
  await expect(page.getByTestId("platform-token")).toHaveText(/configured/);
  await expect(page.getByTestId("webhook-url")).toContainText("/api/webhooks/platform");
  await page.getByRole("button", { name: "Test connection" }).click();
  await expect(page.getByTestId("connection-result")).toContainText(/Connected in \d+ ms/);
  await expect(page.getByTestId("connection-result")).toContainText("traceID");

  await page.getByLabel("Flag an operation as stuck after (minutes without a status change)").fill("1e3");
  await page.getByTestId("setting-stuckOperationMinutes").getByRole("button", { name: "Save" }).click();
  await expect(page.locator("#setting-stuckOperationMinutes-error")).toContainText("digits only");

  // Failed calls are what support digs into later: never kept shorter than the rest.
  await page.getByLabel("Keep failed platform calls for (days)").fill("30");
  await page.getByTestId("setting-failedApiCallRetentionDays").getByRole("button", { name: "Save" }).click();
  await expect(page.locator("#setting-failedApiCallRetentionDays-error")).toHaveText(
    "At least 90 days: failed calls and refused webhooks are kept at least as long as the others.",
  );
  await page.reload();
  await expect(page.getByLabel("Keep failed platform calls for (days)")).toHaveValue("365");
});

test("support sees the webhook inbox with outcomes and the raw body", async ({ page }) => {
  await signIn(page, "support");
  await page.goto("/webhooks");
  await expect(page.getByRole("heading", { name: "Webhook inbox" })).toBeVisible();
  const rows = page.getByTestId("webhook-row");
  await expect(rows.first()).toBeVisible();
  await expect(rows.first().getByTestId("outcome-badge")).toBeVisible();
  await rows.first().getByRole("link").first().click();
  await expect(page.getByTestId("raw-body")).not.toBeEmpty();
});

test("finance runs a reconciliation now and the run completes", async ({ page }) => {
  await signIn(page, "finance");
  await page.goto("/reconciliation");
  const before = await page.getByTestId("run-row").count();
  const newest = before ? await page.getByTestId("run-row").first().textContent() : null;
  await page.getByRole("button", { name: "Run now" }).click();
  await expect(
    page.getByRole("status").filter({ hasText: /reconciliation is (already )?queued/ }),
  ).toBeVisible();
  await expect(async () => {
    await page.reload();
    const first = page.getByTestId("run-row").first();
    await expect(first).toBeVisible();
    expect(await first.textContent()).not.toBe(newest);
    await expect(first.getByTestId("run-status")).toHaveText("completed");
  }).toPass({ timeout: 20_000 });
});

test("home shows what needs attention for the role", async ({ page, browser }) => {
  await signIn(page, "admin");
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Welcome, " })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Needs attention" })).toBeVisible();
  for (const key of ["approvals", "stuck", "webhook-failures", "webhook-oldest", "reconciliation", "drift"])
    await expect(page.getByTestId(`attention-${key}`)).toBeVisible();
  const other = await browser.newContext();
  const supportPage = await other.newPage();
  await signIn(supportPage, "support");
  await supportPage.goto("/");
  await expect(supportPage.getByRole("heading", { name: "Welcome, Demo support" })).toBeVisible();
  await expect(supportPage.getByTestId("attention-approvals")).toHaveCount(0);
  await expect(supportPage.getByTestId("attention-webhook-failures")).toBeVisible();
  await other.close();
});
