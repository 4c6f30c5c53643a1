import { expect, test, type Browser, type Page } from "@playwright/test";
import { Secret, TOTP } from "otpauth";
import pg from "pg";
import { TWO_FACTOR_PAYOUT_MERCHANT_ID, twoFactorUsers } from "./fixtures/two-factor-users";

// Issue 15 in the browser. Runs after every other spec (playwright.config.ts): it turns the two-factor
// policy on for approvers through Settings, and off again at the end. Its users and pay-out are its own
// (tests/e2e/fixtures/two-factor.ts). Codes are computed from the secret the page shows, with otpauth.
test.describe.configure({ mode: "serial" });

const PERIOD_MS = 30_000;
let secret = "";
let recoveryCodes: string[] = [];
/** The step of the last code used: each code is accepted once, so the next one is of a later step. */
let lastStep = 0;
let lastCode = "";

function totp(): TOTP {
  return new TOTP({ algorithm: "SHA1", digits: 6, period: 30, secret: Secret.fromBase32(secret) });
}

/** The time a code may take from being computed here to being checked by the server. */
const IN_FLIGHT_MS = 10_000;
const stepOf = (ms: number) => Math.floor(ms / PERIOD_MS);

/**
 * A code after the last one used, of the earliest step the server still takes when it checks it: it
 * accepts the step before and after its own (clock drift), so three codes in a row seldom wait for a new
 * 30-second step.
 */
async function nextCode(): Promise<string> {
  for (;;) {
    const now = Date.now();
    const step = Math.max(lastStep + 1, stepOf(now + IN_FLIGHT_MS) - 1);
    if (step <= stepOf(now) + 1) {
      lastStep = step;
      lastCode = totp().generate({ timestamp: step * PERIOD_MS });
      return lastCode;
    }
    await new Promise((resolve) => setTimeout(resolve, (step - 1) * PERIOD_MS - now + 200));
  }
}

async function signInWithPassword(page: Page, email: string, password: string) {
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

async function signOut(page: Page) {
  await page.getByTestId("user-menu").locator("summary").click();
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/login$/);
}

async function withDatabase<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/** The admin sets the roles that must use two-factor, in Settings (no second factor of its own). */
async function setRequiredRoles(browser: Browser, required: string[]) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signInWithPassword(page, "admin@paydesk.local", "paydesk-admin-demo");
  await expect(page.getByTestId("current-user")).toBeAttached({ timeout: 20_000 });
  await page.goto("/settings");
  const policy = page.getByTestId("two-factor-policy");
  await expect(policy.getByTestId("two-factor-sso")).toHaveText(/Single sign-on is not configured/);
  const form = policy.getByTestId("setting-twoFactorRequiredRoles");
  for (const role of ["admin", "finance", "approver", "support"]) {
    await form.getByLabel(role, { exact: true }).setChecked(required.includes(role));
  }
  await form.getByRole("button", { name: "Save" }).click();
  await expect(form.getByRole("status")).toHaveText("Saved.");
  await context.close();
}

test.beforeAll(async ({ browser }) => {
  await setRequiredRoles(browser, ["approver"]);
});

test.afterAll(async ({ browser }) => {
  await setRequiredRoles(browser, []);
});

test("an approver enrols, signs out, signs in with a code, and approves a pay-out after a step-up", async ({
  page,
}) => {
  test.setTimeout(150_000);
  const { email, password } = twoFactorUsers.approver;

  // the password is right: a required user without two-factor is sent to enrolment
  await signInWithPassword(page, email, password);
  await expect(page).toHaveURL(/\/two-factor\/setup$/, { timeout: 20_000 });
  await expect(page.getByTestId("setup-reason")).toHaveText(/Your role requires two-factor authentication/);
  await page.getByRole("button", { name: "Set up two-factor authentication" }).click();
  await expect(page.getByRole("img", { name: /QR code/ })).toBeVisible();
  secret = (await page.getByTestId("totp-secret").textContent())!.replace(/\s/g, "");
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await page.getByLabel("Code from the app").fill(await nextCode());
  await page.getByRole("button", { name: "Confirm" }).click();
  await expect(page.getByText("Two-factor authentication is on.")).toBeVisible();
  recoveryCodes = await page.getByTestId("recovery-code").allTextContents();
  expect(recoveryCodes).toHaveLength(10);
  await page.getByRole("button", { name: "I have saved the codes, continue" }).click();
  await expect(page.getByTestId("current-user")).toBeAttached();

  // the account page shows the state, never the secret
  await page.goto("/account/two-factor");
  await expect(page.getByTestId("two-factor-enrolled")).toHaveText(/On since/);
  await expect(page.getByTestId("recovery-codes-left")).toHaveText("10");
  expect(await page.content()).not.toContain(secret);

  await signOut(page);

  // signing in again: the password, then a code
  await signInWithPassword(page, email, password);
  await expect(page).toHaveURL(/\/login\/two-factor/, { timeout: 20_000 });
  await page.getByLabel("Confirmation code").fill("000000");
  await page.getByRole("button", { name: "Confirm" }).click();
  await expect(page.locator("main form").getByRole("alert")).toHaveText(/Wrong email, password or code\./);
  await page.getByLabel("Confirmation code").fill(await nextCode());
  await page.getByRole("button", { name: "Confirm" }).click();
  await expect(page.getByTestId("current-user")).toBeAttached({ timeout: 20_000 });

  // the sign-in's code is older than the step-up window by now (as if 10 minutes had passed)
  await withDatabase((db) =>
    db.query(
      `UPDATE "Session" SET "secondFactorAt" = now() - interval '10 minutes'
        WHERE "userId" = (SELECT id FROM "User" WHERE email = $1)`,
      [email],
    ),
  );
  const payoutId = await withDatabase(async (db) => {
    const { rows } = await db.query<{ id: string }>(
      `SELECT id FROM "PayoutRequest" WHERE "idTransactionMerchant" = $1`,
      [TWO_FACTOR_PAYOUT_MERCHANT_ID],
    );
    return rows[0]!.id;
  });

  // approving asks for a fresh code; the code already used is refused; a new one approves
  await page.goto(`/payouts/${payoutId}`);
  await page.getByLabel("Comment").fill("Checked, with a second factor");
  await page.getByRole("button", { name: "Approve" }).click();
  const dialog = page.getByTestId("step-up-dialog");
  await expect(dialog).toBeVisible();
  await dialog.getByLabel("Confirmation code").fill(lastCode);
  await dialog.getByRole("button", { name: "Confirm" }).click();
  await expect(dialog.getByText("Wrong code, or a code that was already used.")).toBeVisible();
  await dialog.getByLabel("Confirmation code").fill(await nextCode());
  await dialog.getByRole("button", { name: "Confirm" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(
    page.getByRole("status").filter({ hasText: "Approved; it is being sent to the platform" }),
  ).toBeVisible({ timeout: 20_000 });
});

test("a recovery code signs in once", async ({ page }) => {
  test.setTimeout(60_000);
  const { email, password } = twoFactorUsers.approver;
  const code = recoveryCodes[0]!;
  await signInWithPassword(page, email, password);
  await expect(page).toHaveURL(/\/login\/two-factor/, { timeout: 20_000 });
  await page.getByLabel("Confirmation code").fill(code);
  await page.getByRole("button", { name: "Confirm" }).click();
  await expect(page.getByTestId("current-user")).toBeAttached({ timeout: 20_000 });
  await page.goto("/account/two-factor");
  await expect(page.getByTestId("recovery-codes-left")).toHaveText("9");
  await signOut(page);

  await signInWithPassword(page, email, password);
  await expect(page).toHaveURL(/\/login\/two-factor/, { timeout: 20_000 });
  await page.getByLabel("Confirmation code").fill(code);
  await page.getByRole("button", { name: "Confirm" }).click();
  await expect(page.locator("main form").getByRole("alert")).toHaveText(/Wrong email, password or code\./);
  await expect(page).toHaveURL(/\/login\/two-factor/);
  await expect(page.getByTestId("current-user")).toHaveCount(0);
});

test("a required user who has not enrolled cannot reach any page but enrolment", async ({ page }) => {
  test.setTimeout(60_000);
  const { email, password } = twoFactorUsers.newcomer;
  await signInWithPassword(page, email, password);
  await expect(page).toHaveURL(/\/two-factor\/setup$/, { timeout: 20_000 });
  for (const path of ["/", "/payouts", "/operations", "/balance", "/account/two-factor", "/settings"]) {
    await page.goto(path);
    await expect(page, path).toHaveURL(/\/two-factor\/setup$/);
    await expect(page.getByTestId("current-user")).toHaveCount(0);
  }
  // route handlers refuse too (the page is not the only door)
  const response = await page.request.get("/api/operations");
  expect(response.status()).toBe(403);
  expect(await response.json()).toMatchObject({ ok: false, code: "two_factor_required" });
  // and signing out works from there
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/login$/);
});
