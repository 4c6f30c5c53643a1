import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test, type Browser, type Page } from "@playwright/test";
import type { Role } from "../../lib/auth/permissions";
import type { Locale } from "../../lib/i18n/locales";
import { formatMoney } from "../../lib/money/format";
import { freshCard } from "../support/cards";
import type enPayouts from "../../messages/en/payouts.json";

/** The pay-out screens' words in each language, from the catalogs the app renders. */
const catalog = (locale: Locale) =>
  JSON.parse(
    readFileSync(path.join(process.cwd(), "messages", locale, "payouts.json"), "utf8"),
  ) as typeof enPayouts;
const WORDS: Record<Locale, typeof enPayouts> = { en: catalog("en"), ru: catalog("ru") };
/** The browser's language: a user with no saved preference is served in it. */
const BROWSER_LOCALE: Record<Locale, string> = { en: "en-US", ru: "ru-RU" };

// Started by scripts/e2e.ts: the app on a throw-away database, the sandbox at SANDBOX_URL (its demo
// merchant's webhook URL points at the app) and the worker that processes webhooks.
const sandboxUrl = process.env.SANDBOX_URL ?? "http://127.0.0.1:4010";

async function signIn(page: Page, role: Role) {
  await page.goto("/login");
  // by name, not by label: the sign-in page speaks the browser's language
  const form = page.locator("form", { has: page.locator('input[name="email"]') });
  await form.locator('input[name="email"]').fill(`${role}@paydesk.local`);
  await form.locator('input[name="password"]').fill(`paydesk-${role}-demo`);
  await form.locator('button[type="submit"]').click();
  // argon2 verification under a loaded machine can take several seconds
  await expect(page.getByTestId("current-user")).toBeAttached({ timeout: 20_000 });
}

async function asRole(browser: Browser, role: Role, locale: Locale = "en"): Promise<Page> {
  const context = await browser.newContext({ locale: BROWSER_LOCALE[locale] });
  const page = await context.newPage();
  await signIn(page, role);
  return page;
}

async function sandbox<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${sandboxUrl}${path}`, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} -> ${response.status}: ${text}`);
  return JSON.parse(text) as T;
}

type Merchant = { id: string; token: string; balance: { available: string } };
const demo = async () =>
  (await sandbox<Merchant[]>("GET", "/__sandbox/merchants")).find((m) => m.id === "demo")!;

/** The pay-out operations the platform holds for a merchant id (the spec's by-merchant-id read). */
async function platformOperations(
  idTransactionMerchant: string,
): Promise<Array<{ id: string; status: string }>> {
  const { token } = await demo();
  const response = await fetch(
    `${sandboxUrl}/operation/operation/merhcant/${encodeURIComponent(idTransactionMerchant)}`,
    { headers: { authorization: `Bearer ${token}` } },
  );
  const envelope = (await response.json()) as { data: Array<{ id: string; status: string }> | null };
  return envelope.data ?? [];
}

/**
 * GET /balance's exchangeRate comes from the last successful operation; a fresh sandbox has none, so a
 * pay-in is completed first (the review then converts the amount into the balance currency).
 */
async function ensureExchangeRate(): Promise<void> {
  const { token } = await demo();
  const response = await fetch(`${sandboxUrl}/host2host/payin`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: `{"paymentMethod":"toCard","idTransactionMerchant":"e2e-rate-${Date.now()}","amount":5000,"clientID":"e2e-rate-client-${Date.now()}","clientIP":"85.143.12.8","clientDateCreated":"2023-01-01T00:00:00Z"}`,
  });
  const created = (await response.json()) as { data: { id: string } | null; codeError?: string };
  if (!created.data) throw new Error(`pay-in not created: ${created.codeError}`);
  for (const status of ["in_progress", "success"])
    await sandbox("POST", `/__sandbox/operations/${created.data.id}/status`, { status });
}

/** Unique per run so that parallel specs sharing the database never trip the duplicate guard. */
const uniqueAmount = () =>
  `${100 + Math.floor(Math.random() * 800)}.${String(Math.floor(Math.random() * 9999) + 1).padStart(4, "0")}`;

async function fillPayout(
  page: Page,
  values: { card: string; amount: string; bank?: string },
  locale: Locale = "en",
) {
  const w = WORDS[locale];
  const field = (label: string) => page.getByLabel(label, { exact: true });
  await field(w.fields.paymentMethod).selectOption("toCard");
  await field(w.fields.bank).fill(values.bank ?? "Сбербанк");
  await field(w.fields.recipientNumber).fill(values.card);
  await field(w.form.recipientNameOptional).fill("Ivan Petrov");
  await field(w.fields.amount).fill(values.amount);
  await field(w.fields.clientId).fill(`e2e-client-${Date.now()}`);
  await field(w.form.clientIpAddress).fill("85.143.12.7");
  await field(w.form.clientRegisteredOn).fill("2023-04-17");
}

/** How a person in that language types the amount: 1500,50 in Russian, 1500.50 in English. */
const typed = (amount: string, locale: Locale) => (locale === "ru" ? amount.replace(".", ",") : amount);

/**
 * The whole pay-out in one language: finance creates it (a field error first), an approver approves it,
 * the platform gets one operation, success arrives by webhook, the balance shows the new figure.
 */
async function payoutFlow(browser: Browser, locale: Locale) {
  const w = WORDS[locale];
  const money = (amount: string, currency: string) => formatMoney(amount, currency, { locale });
  await sandbox("POST", "/__sandbox/merchants/demo/balance", {
    amount: "1000",
    note: `e2e pay-out ${locale}`,
  });
  await ensureExchangeRate();
  const amount = uniqueAmount();
  const card = freshCard();

  // finance: form -> a field error in the reader's language -> review -> create
  const page = await asRole(browser, "finance", locale);
  await page.goto("/payouts");
  await expect(page.getByRole("heading", { name: w.title, exact: true })).toBeVisible();
  await page.getByRole("link", { name: w.newPayout, exact: true }).click();
  await expect(page.getByRole("heading", { name: w.newPayout, exact: true })).toBeVisible();
  await fillPayout(page, { card, amount: "1.500,50" }, locale);
  await page.getByRole("button", { name: w.form.review, exact: true }).click();
  await expect(page.locator("#amount")).toHaveAttribute("aria-invalid", "true");
  await expect(page.locator("#amount-error")).toHaveText(w.form.amount.ambiguous);
  await expect(page.getByTestId("payout-review")).toHaveCount(0);

  await page.getByLabel(w.fields.amount, { exact: true }).fill(typed(amount, locale));
  await page.getByRole("button", { name: w.form.review, exact: true }).click();
  const review = page.getByTestId("payout-review");
  await expect(review).toBeVisible();
  await expect(review.getByRole("heading", { name: w.review.heading })).toBeVisible();
  await expect(review).toContainText(card);
  await expect(review).toContainText(money(amount, "RUB"));
  await expect(page.getByTestId("balance-check")).toContainText("USDT");
  // the console reads GET /balance at most every 5 s: review again until the new rate is seen
  await expect(async () => {
    if (!(await page.getByTestId("amount-in-balance-currency").isVisible())) {
      await page.getByRole("button", { name: w.review.backToEdit }).click();
      await page.getByRole("button", { name: w.form.review, exact: true }).click();
    }
    await expect(page.getByTestId("amount-in-balance-currency")).toContainText("USDT", { timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  const merchantId = (await page.getByTestId("review-merchant-id").textContent())!.trim();
  expect(merchantId).toMatch(/^po-/);
  await page.getByRole("button", { name: w.review.create }).click();
  await expect(page).toHaveURL(/\/payouts\/[0-9a-f-]{36}$/);
  const detailUrl = page.url();
  await expect(page.getByTestId("payout-merchant-id")).toHaveText(merchantId);
  await expect(page.getByRole("heading", { level: 1 })).toContainText(money(amount, "RUB"));
  await expect(page.getByTestId("payout-status")).toHaveText(w.statuses.awaiting_approval);
  await expect(page.getByText(w.refusals.ownRequest)).toHaveCount(0); // finance has no approve right
  expect(await platformOperations(merchantId)).toHaveLength(0);

  // approver: approve with a comment -> handed to the worker; the page follows it until it is sent
  const approver = await asRole(browser, "approver", locale);
  await approver.goto(detailUrl);
  await approver.getByLabel(w.decision.comment, { exact: true }).fill(`Matches invoice E2E ${locale}`);
  await approver.getByRole("button", { name: w.decision.approve, exact: true }).click();
  await expect(approver.getByRole("status").filter({ hasText: w.decision.approvedSending })).toBeVisible();
  await expect(approver.getByTestId("payout-status")).toHaveText(w.statuses.submitted, { timeout: 20_000 });
  await expect(approver.getByTestId("payout-sending")).toHaveCount(0);
  await expect(approver.getByTestId("payout-decision")).toContainText(`Matches invoice E2E ${locale}`);

  // the platform received exactly one operation
  const operations = await platformOperations(merchantId);
  expect(operations).toHaveLength(1);
  const operationId = operations[0]!.id;
  await expect(approver.getByTestId("payout-operation-link")).toHaveText(operationId);

  // the sandbox completes it; the webhook reaches the console, which shows success (the green badge:
  // the operation statuses' names belong to the operations screens)
  await sandbox("POST", `/__sandbox/operations/${operationId}/status`, { status: "in_progress" });
  await sandbox("POST", `/__sandbox/operations/${operationId}/status`, { status: "success" });
  await expect(async () => {
    const deliveries = await sandbox<Array<{ state: string }>>(
      "GET",
      `/__sandbox/webhooks?operationId=${operationId}`,
    );
    expect(deliveries.some((d) => d.state === "delivered")).toBe(true);
  }).toPass({ timeout: 20_000 });
  await expect(async () => {
    await page.goto(detailUrl);
    const badge = page.getByTestId("payout-platform").getByTestId("status-badge");
    await expect(badge).toHaveClass(/emerald/, { timeout: 1_000 });
    if (locale === "en") await expect(badge).toHaveText("success", { timeout: 1_000 });
  }).toPass({ timeout: 30_000 });

  // and the new balance (the platform's figure now; other specs may move it, so compare live)
  await expect(async () => {
    await page.goto("/balance");
    const available = (await demo()).balance.available;
    await expect(page.getByTestId("balance-card")).toContainText(money(available, "USDT"), {
      timeout: 1_000,
    });
  }).toPass({ timeout: 30_000 });
  await approver.context().close();
  await page.context().close();
}

test.describe("pay-outs", () => {
  for (const locale of ["en", "ru"] as const) {
    test(`${locale}: finance creates, an approver approves, the platform gets one operation, success arrives by webhook`, async ({
      browser,
    }) => {
      test.setTimeout(120_000);
      await payoutFlow(browser, locale);
    });
  }

  test("bad input in the browser: clear messages, nothing created", async ({ page }) => {
    await signIn(page, "finance");
    await page.goto("/payouts/new");
    const card = freshCard();
    const badCard = card.replace(/\d$/, (d) => String((Number(d) + 1) % 10));
    const cases: Array<[string, () => Promise<void>, string, RegExp]> = [
      ["5 decimals", () => page.getByLabel("Amount").fill("1.23456"), "amount", /At most 4 digits/],
      ["1e3", () => page.getByLabel("Amount").fill("1e3"), "amount", /without an exponent/],
      ["negative", () => page.getByLabel("Amount").fill("-5"), "amount", /greater than zero/],
      ["empty amount", () => page.getByLabel("Amount").fill(""), "amount", /Enter the amount/],
      ["Luhn", () => page.getByLabel("Recipient number").fill(badCard), "recipientNumber", /Luhn/],
      [
        "unknown bank",
        () => page.getByLabel("Bank").fill("Bank of Nowhere"),
        "bankName",
        /Choose the bank from the list/,
      ],
      [
        "dummy IP",
        () => page.getByLabel("Client IP address").fill("0.0.0.0"),
        "clientIP",
        /not a real address/,
      ],
      ["dummy client id", () => page.getByLabel("Client id").fill("test"), "clientID", /placeholder/],
    ];
    for (const [, spoil, field, message] of cases) {
      await fillPayout(page, { card, amount: uniqueAmount() });
      await spoil();
      await page.getByRole("button", { name: "Review" }).click();
      const input = page.locator(`#${field}`);
      await expect(input).toHaveAttribute("aria-invalid", "true");
      await expect(page.locator(`#${field}-error`)).toHaveText(message);
      await expect(page.getByTestId("payout-review")).toHaveCount(0);
    }
    // a 1 MB value (past the input's maxLength) is refused in the browser before anything is sent
    await fillPayout(page, { card, amount: uniqueAmount() });
    await page.locator("#recipientName").evaluate((el) => el.removeAttribute("maxlength"));
    await page.locator("#recipientName").fill("x".repeat(1024 * 1024));
    await page.getByRole("button", { name: "Review" }).click();
    await expect(page.locator("#recipientName-error")).toHaveText(/too long/);
    await page.goto("/payouts");
    await expect(page.getByTestId("payout-row").filter({ hasText: card.slice(-4) })).toHaveCount(0);
  });

  test("support cannot reach the pay-out pages", async ({ page }) => {
    await signIn(page, "support");
    for (const path of ["/payouts", "/payouts/new", "/payouts/00000000-0000-4000-8000-000000000000"]) {
      await page.goto(path);
      await expect(page).toHaveURL(/\/forbidden$/);
    }
    await expect(
      page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Pay-outs" }),
    ).toHaveCount(0);
  });
});
