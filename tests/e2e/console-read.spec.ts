import { expect, test, type Page } from "@playwright/test";
import { seeded } from "./fixtures/mirror-data";
import type { Role } from "../../lib/auth/permissions";

// Needs the mirror seeded by tests/e2e/fixtures/seed-mirror.ts (scripts/e2e.ts does it).

async function signIn(page: Page, role: Role) {
  await page.goto("/login");
  await page.getByLabel("Email").fill(`${role}@paydesk.local`);
  await page.getByLabel("Password").fill(`paydesk-${role}-demo`);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("current-user")).toBeAttached();
}

const rows = (page: Page) => page.getByTestId("operation-row");

const allowed = {
  admin: { trace: true, balance: true, export: true, reveal: true, refresh: true },
  finance: { trace: true, balance: true, export: true, reveal: true, refresh: true },
  approver: { trace: false, balance: true, export: false, reveal: true, refresh: false },
  support: { trace: true, balance: false, export: false, reveal: false, refresh: true },
} as const;

for (const role of Object.keys(allowed) as Role[]) {
  const may = allowed[role];

  test(`${role}: filters and searches the list, opens a detail`, async ({ page }) => {
    await signIn(page, role);
    await page.goto("/operations");
    await expect(page.getByRole("heading", { name: "Operations" })).toBeVisible();
    await expect(rows(page).first()).toBeVisible();
    await expect(page.getByRole("link", { name: "Export CSV" })).toHaveCount(may.export ? 1 : 0);

    await page.getByRole("checkbox", { name: "success" }).check();
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(page).toHaveURL(/status=success/);
    await expect(rows(page)).toHaveCount(2);
    for (const badge of await page.getByTestId("operations-table").getByTestId("status-badge").all()) {
      await expect(badge).toHaveText("success");
    }
    await expect(page.getByTestId("count-failed")).toContainText("2");

    await page.goto(`/operations?q=${seeded.numberLastDigits}`);
    await expect(rows(page)).toHaveCount(1);
    await expect(rows(page).first()).toContainText("************4242");

    await page.goto(`/operations?q=${seeded.payInSuccess.merchantId}`);
    await expect(rows(page)).toHaveCount(1);
    await rows(page).first().getByRole("link").first().click();
    await expect(page).toHaveURL(new RegExp(`/operations/${seeded.payInSuccess.id}`));
    await expect(page.getByRole("heading", { name: "Status timeline" })).toBeVisible();
    await expect(page.getByTestId("timeline").getByTestId("status-badge")).toHaveText([
      "created",
      "in_progress",
      "success",
    ]);
    await expect(page.getByText("1,500.50 RUB").first()).toBeVisible();
    await expect(page.getByTestId("webhooks")).toContainText("duplicate");
    await expect(page.getByTestId("webhooks")).toContainText(seeded.readBackTraceID);
    await expect(page.getByTestId("api-calls")).toContainText(seeded.creationTraceID);
    await expect(page.getByRole("button", { name: "Refresh from platform" })).toHaveCount(
      may.refresh ? 1 : 0,
    );
    await expect(page.getByTestId("recipient-number")).toHaveText("************4242");
    if (may.reveal) {
      await page.getByRole("button", { name: "Reveal" }).click();
      await expect(page.getByTestId("recipient-number")).toHaveText(seeded.fullNumber);
    } else {
      await expect(page.getByRole("button", { name: "Reveal" })).toHaveCount(0);
    }
    await expect(page.locator("body")).not.toContainText(may.reveal ? "never" : seeded.fullNumber);
  });

  test(`${role}: trace lookup ${may.trace ? "finds the call" : "is forbidden"}`, async ({ page }) => {
    await signIn(page, role);
    await page.goto(`/trace?q=${seeded.creationTraceID}`);
    if (!may.trace) {
      await expect(page).toHaveURL(/\/forbidden$/);
      return;
    }
    await expect(page.getByText("Found by traceID.")).toBeVisible();
    await expect(page.getByTestId("trace-call")).toContainText("/host2host/payin");
    await expect(page.getByTestId("trace-operation")).toContainText(seeded.payInSuccess.id);
    await page.getByText("Bundle text (redacted)").click();
    const bundle = await page.getByTestId("support-bundle").inputValue();
    expect(bundle).toContain(seeded.creationTraceID);
    expect(bundle).not.toContain(seeded.fullNumber);
    await page.getByRole("button", { name: "Copy support bundle" }).click();
    await expect(page.getByRole("status").filter({ hasText: /Copied|Could not copy/ })).toBeVisible();
  });

  test(`${role}: balance and charts ${may.balance ? "are shown" : "are forbidden"}`, async ({ page }) => {
    await signIn(page, role);
    await page.goto("/balance");
    if (!may.balance) {
      await expect(page).toHaveURL(/\/forbidden$/);
      return;
    }
    await expect(page.getByRole("heading", { name: "Balance" })).toBeVisible();
    await expect(page.getByTestId("balance-card")).toBeVisible();
    await expect(page.getByTestId("chart-balance")).toBeVisible();
    await expect(page.getByTestId("chart-volume-payIn")).toBeVisible();
    await expect(page.getByTestId("chart-success-rate")).toBeVisible();
    await expect(page.getByTestId("chart-time-to-final")).toBeVisible();
  });
}

test("an invalid filter is shown next to its field, not ignored", async ({ page }) => {
  await signIn(page, "finance");
  await page.goto("/operations?amountMin=1e3&tz=Mars/Olympus");
  await expect(page.getByRole("alert").filter({ hasText: "cannot be used" })).toBeVisible();
  await expect(page.locator("#amountMin-error")).toBeVisible();
  await expect(page.locator("#tz-error")).toContainText("Unknown time zone");
  await expect(page.getByLabel("Amount from")).toHaveAttribute("aria-invalid", "true");
});

test("pages move by cursor and a saved view comes back", async ({ page }) => {
  await signIn(page, "finance");
  await page.goto("/operations?size=4");
  await expect(rows(page)).toHaveCount(4);
  const first = await rows(page).allTextContents();
  await page.getByRole("link", { name: "Older →" }).click();
  await expect(page).toHaveURL(/after=/);
  const second = await rows(page).allTextContents();
  expect(second.some((r) => first.includes(r))).toBe(false);
  await page.getByRole("link", { name: "← Newer" }).click();
  await expect(rows(page)).toHaveText(first);

  const name = `failed-${Date.now()}`;
  await page.goto("/operations?status=failed&cols=dateAdded,status,amount");
  await expect(page.getByRole("columnheader")).toHaveText(["Created", "Status", "Amount"]);
  await page.getByLabel("Save this view as").fill(name);
  await page.getByRole("button", { name: "Save view" }).click();
  await expect(page.getByRole("link", { name })).toBeVisible();
  await page.goto("/operations");
  await page.getByRole("link", { name }).click();
  await expect(page).toHaveURL(/status=failed/);
  await expect(rows(page)).toHaveCount(2);
});

test("support cannot download the export", async ({ page }) => {
  await signIn(page, "support");
  const response = await page.request.get("/api/exports/operations");
  expect(response.status()).toBe(403);
});

test("finance downloads the filtered CSV with exact amounts", async ({ page }) => {
  await signIn(page, "finance");
  const response = await page.request.get(
    `/api/exports/operations?q=${seeded.payInFailed.merchantId}&tz=Europe/Moscow`,
  );
  expect(response.status()).toBe(200);
  const lines = (await response.text()).trim().split("\r\n");
  expect(lines).toHaveLength(2);
  expect(lines[0]).toContain("dateAddedUtc");
  expect(lines[1]).toContain(",0.0001,");
  expect(lines[1]).toMatch(/\+03:00/);
});

test.describe("at phone width", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("the list, a detail, the trace, balance and statements pages fit the screen", async ({ page }) => {
    await signIn(page, "admin");
    for (const path of [
      "/operations",
      `/operations/${seeded.payInSuccess.id}`,
      `/trace?q=${seeded.creationTraceID}`,
      "/balance",
      "/statements",
    ]) {
      await page.goto(path);
      await expect(page.locator("main h1").first()).toBeVisible();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, path).toBeLessThanOrEqual(0);
    }
    await page.goto("/operations");
    await expect(rows(page).first()).toBeVisible();
    await page.getByLabel("Search").fill(seeded.payOutPendingRetry.merchantId);
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(rows(page)).toHaveCount(1);
  });
});
