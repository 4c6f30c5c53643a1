import { expect, test, type Browser, type Page } from "@playwright/test";
import { formatMoney } from "../../lib/money/format";
import { luhnValid } from "../../lib/payouts/luhn";
import type { Role } from "../../lib/auth/permissions";

// Started by scripts/e2e.ts: the app on a throw-away database, the sandbox at SANDBOX_URL (its demo
// merchant's webhook URL points at the app) and the worker that processes webhooks.
const sandboxUrl = process.env.SANDBOX_URL ?? "http://127.0.0.1:4010";

async function signIn(page: Page, role: Role) {
  await page.goto("/login");
  await page.getByLabel("Email").fill(`${role}@paydesk.local`);
  await page.getByLabel("Password").fill(`paydesk-${role}-demo`);
  await page.getByRole("button", { name: "Sign in" }).click();
  // argon2 verification under a loaded machine can take several seconds
  await expect(page.getByTestId("current-user")).toBeAttached({ timeout: 20_000 });
}

async function asRole(browser: Browser, role: Role): Promise<Page> {
  const context = await browser.newContext();
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

function freshCard(): string {
  const body = `2200${String(Math.floor(Math.random() * 1e11)).padStart(11, "0")}`;
  for (let d = 0; d <= 9; d++) if (luhnValid(`${body}${d}`)) return `${body}${d}`;
  throw new Error("unreachable");
}

/** Unique per run so that parallel specs sharing the database never trip the duplicate guard. */
const uniqueAmount = () =>
  `${100 + Math.floor(Math.random() * 800)}.${String(Math.floor(Math.random() * 9999) + 1).padStart(4, "0")}`;

async function fillPayout(page: Page, values: { card: string; amount: string; bank?: string }) {
  await page.getByLabel("Payment method").selectOption("toCard");
  await page.getByLabel("Bank").fill(values.bank ?? "Сбербанк");
  await page.getByLabel("Recipient number").fill(values.card);
  await page.getByLabel("Recipient name (optional)").fill("Ivan Petrov");
  await page.getByLabel("Amount").fill(values.amount);
  await page.getByLabel("Client id").fill(`e2e-client-${Date.now()}`);
  await page.getByLabel("Client IP address").fill("85.143.12.7");
  await page.getByLabel("Client registered on").fill("2023-04-17");
}

test.describe("pay-outs", () => {
  test("finance creates, an approver approves, the platform gets one operation, success arrives by webhook", async ({
    page,
    browser,
  }) => {
    test.setTimeout(90_000);
    await sandbox("POST", "/__sandbox/merchants/demo/balance", { amount: "1000", note: "e2e pay-out" });
    await ensureExchangeRate();
    const amount = uniqueAmount();
    const card = freshCard();

    // finance: form -> review -> create
    await signIn(page, "finance");
    await page.goto("/payouts");
    await page.getByRole("link", { name: "New pay-out" }).click();
    await expect(page.getByRole("heading", { name: "New pay-out" })).toBeVisible();
    await fillPayout(page, { card, amount });
    await page.getByRole("button", { name: "Review" }).click();
    const review = page.getByTestId("payout-review");
    await expect(review).toBeVisible();
    await expect(review).toContainText(card);
    await expect(review).toContainText(formatMoney(amount, "RUB"));
    await expect(page.getByTestId("balance-check")).toContainText("USDT");
    // the console reads GET /balance at most every 5 s: review again until the new rate is seen
    await expect(async () => {
      if (!(await page.getByTestId("amount-in-balance-currency").isVisible())) {
        await page.getByRole("button", { name: "Back to edit" }).click();
        await page.getByRole("button", { name: "Review" }).click();
      }
      await expect(page.getByTestId("amount-in-balance-currency")).toContainText("USDT", { timeout: 2_000 });
    }).toPass({ timeout: 20_000 });
    const merchantId = (await page.getByTestId("review-merchant-id").textContent())!.trim();
    expect(merchantId).toMatch(/^po-/);
    await page.getByRole("button", { name: "Create pay-out request" }).click();
    await expect(page).toHaveURL(/\/payouts\/[0-9a-f-]{36}$/);
    const detailUrl = page.url();
    await expect(page.getByTestId("payout-merchant-id")).toHaveText(merchantId);
    await expect(page.getByTestId("payout-status")).toHaveText("awaiting approval");
    await expect(page.getByText("You created this pay-out")).toHaveCount(0); // finance has no approve right
    expect(await platformOperations(merchantId)).toHaveLength(0);

    // approver: approve with a comment -> handed to the worker; the page follows it until it is sent
    const approver = await asRole(browser, "approver");
    await approver.goto(detailUrl);
    await approver.getByLabel("Comment").fill("Matches invoice E2E");
    await approver.getByRole("button", { name: "Approve" }).click();
    await expect(
      approver.getByRole("status").filter({ hasText: "Approved; it is being sent to the platform" }),
    ).toBeVisible();
    await expect(approver.getByTestId("payout-status")).toHaveText("submitted", { timeout: 20_000 });
    await expect(approver.getByTestId("payout-sending")).toHaveCount(0);
    await expect(approver.getByTestId("payout-decision")).toContainText("Matches invoice E2E");

    // the platform received exactly one operation
    const operations = await platformOperations(merchantId);
    expect(operations).toHaveLength(1);
    const operationId = operations[0]!.id;
    await expect(approver.getByTestId("payout-operation-link")).toHaveText(operationId);

    // the sandbox completes it; the webhook reaches the console, which shows success
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
      await expect(page.getByTestId("payout-platform").getByTestId("status-badge")).toHaveText("success", {
        timeout: 1_000,
      });
    }).toPass({ timeout: 30_000 });

    // and the new balance (the platform's figure now; other specs may move it, so compare live)
    await expect(async () => {
      await page.goto("/balance");
      const available = (await demo()).balance.available;
      await expect(page.getByTestId("balance-card")).toContainText(formatMoney(available, "USDT"), {
        timeout: 1_000,
      });
    }).toPass({ timeout: 30_000 });
    await approver.context().close();
  });

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
