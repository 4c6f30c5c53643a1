import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test, type Page, type Response } from "@playwright/test";

// Security headers, the nonce-based Content-Security-Policy (pages still work under it), framing
// from another origin, and the error pages with the ids to quote (scripts/e2e.ts sets
// E2E_ERROR_PROBE=1, which makes /error-probe fail on purpose).
type Role = "admin" | "finance";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

async function signIn(page: Page, role: Role) {
  await page.goto("/login");
  await page.getByLabel("Email").fill(`${role}@paydesk.local`);
  await page.getByLabel("Password").fill(`paydesk-${role}-demo`);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("current-user")).toBeAttached();
}

/** CSP violations the page reports (the browser's own event) and its console lines about CSP. */
async function watchPolicy(page: Page): Promise<() => Promise<string[]>> {
  const consoleLines: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) consoleLines.push(message.text());
  });
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __cspViolations: string[] }).__cspViolations = seen;
    document.addEventListener("securitypolicyviolation", (e) => {
      seen.push(`${e.violatedDirective} ${e.blockedURI}`);
    });
  });
  return async () => [
    ...consoleLines,
    ...(await page.evaluate(
      () => (window as unknown as { __cspViolations?: string[] }).__cspViolations ?? [],
    )),
  ];
}

function expectStaticHeaders(response: { headers(): Record<string, string> }) {
  const headers = response.headers();
  expect(headers["x-frame-options"]).toBe("DENY");
  expect(headers["x-content-type-options"]).toBe("nosniff");
  expect(headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
  expect(headers["permissions-policy"]).toContain("camera=()");
  expect(headers["permissions-policy"]).toContain("microphone=()");
  expect(headers["permissions-policy"]).toContain("geolocation=()");
  expect(headers["permissions-policy"]).toContain("payment=()");
  // Served over plain http here: no HSTS.
  expect(headers["strict-transport-security"]).toBeUndefined();
}

function nonceOf(response: Response): string {
  const policy = response.headers()["content-security-policy"] ?? "";
  const scriptSrc = policy.split(";").find((d) => d.trim().startsWith("script-src")) ?? "";
  expect(scriptSrc).toMatch(/^\s*script-src 'self' 'nonce-[A-Za-z0-9+/]{22}==' 'strict-dynamic'$/);
  expect(policy).toContain("frame-ancestors 'none'");
  expect(policy).toContain("object-src 'none'");
  expect(policy).toContain("base-uri 'self'");
  expect(policy).toContain("form-action 'self'");
  expect(policy).not.toContain("unsafe-eval");
  expect(policy).not.toContain("unsafe-inline");
  return /'nonce-([^']+)'/.exec(scriptSrc)![1]!;
}

test("pages, route handlers, static files and the webhook receiver send the security headers", async ({
  page,
}) => {
  const login = (await page.goto("/login"))!;
  expectStaticHeaders(login);
  const loginNonce = nonceOf(login);
  expect(login.headers()["x-request-id"]).toMatch(UUID);
  // Next put this response's nonce on every script of the page it sent, its inline ones included. (Chunks
  // the runtime adds later carry none: 'strict-dynamic' trusts what a nonce'd script loads.)
  const sentScripts = (await login.text()).match(/<script\b[^>]*>/g) ?? [];
  expect(sentScripts.length).toBeGreaterThan(0);
  expect(sentScripts.filter((tag) => !tag.includes(`nonce="${loginNonce}"`))).toEqual([]);

  await signIn(page, "finance");
  const first = (await page.goto("/payouts"))!;
  const second = (await page.goto("/payouts"))!;
  expectStaticHeaders(first);
  expect(nonceOf(first)).not.toBe(nonceOf(second));
  expect(first.headers()["x-request-id"]).toMatch(UUID);
  expect(first.headers()["x-request-id"]).not.toBe(second.headers()["x-request-id"]);

  // A request id sent by the client is never taken over.
  const forged = await page.request.get("/api/health", { headers: { "x-request-id": "forged-id" } });
  expectStaticHeaders(forged);
  expect(forged.headers()["x-request-id"]).toMatch(UUID);

  const asset = await page.evaluate(() => document.querySelector<HTMLScriptElement>("script[src]")!.src);
  expect(asset).toContain("/_next/static/");
  expectStaticHeaders(await page.request.get(asset));

  const webhook = await page.request.post("/api/webhooks/platform", { data: "{}" });
  expect(webhook.status()).toBeGreaterThanOrEqual(400);
  expectStaticHeaders(webhook);

  // Behind a TLS-terminating proxy (X-Forwarded-Proto: https) browsers are told to keep to https.
  const overHttps = await page.request.get("/api/health", { headers: { "x-forwarded-proto": "https" } });
  expect(overHttps.headers()["strict-transport-security"]).toMatch(/^max-age=\d{8,}; includeSubDomains$/);
});

test.describe("the console works under the policy", () => {
  let violations: () => Promise<string[]>;

  test.beforeEach(async ({ page }) => {
    violations = await watchPolicy(page);
    await signIn(page, "admin");
  });

  test.afterEach(async () => {
    expect(await violations()).toEqual([]);
  });

  test("every screen renders and hydrates", async ({ page }) => {
    test.setTimeout(90_000);
    for (const path of [
      "/",
      "/operations",
      "/trace",
      "/balance",
      "/payouts",
      "/payouts/new",
      "/payins",
      "/webhooks",
      "/reconciliation",
      "/settings",
      "/admin/users",
      "/admin/audit",
    ]) {
      const response = (await page.goto(path))!;
      expect(response.status(), path).toBe(200);
      await expect(page.getByTestId("current-user")).toBeAttached();
    }
  });

  test("/operations: a server action, the refresh it triggers, a client navigation", async ({ page }) => {
    await page.goto("/operations?status=failed");
    const name = `csp-${randomUUID().slice(0, 8)}`;
    await page.getByLabel("Save this view as").fill(name);
    await page.getByRole("button", { name: "Save view" }).click();
    await expect(page.getByRole("link", { name })).toBeVisible();
    await page.goto("/operations");
    await page.getByRole("link", { name }).click();
    await expect(page).toHaveURL(/status=failed/);
    await expect(page.getByTestId("operation-row")).not.toHaveCount(0);
  });

  test("/balance: the charts chunk loads ('strict-dynamic') and the period links navigate", async ({
    page,
  }) => {
    await page.goto("/balance");
    await expect(page.getByTestId("chart-balance")).toBeVisible();
    await page.getByRole("link", { name: "7 days" }).click();
    await expect(page).toHaveURL(/days=7/);
    await expect(page.getByTestId("chart-balance")).toBeVisible();
  });

  test("/payins: a payment link's QR code (a data: image) is shown", async ({ page }) => {
    await page.goto("/payins");
    await page.getByLabel("Payment link: client chooses the method").check();
    await page.getByLabel("Amount").fill("250");
    await page.getByLabel("Client id (in your system)").fill(`csp-client-${randomUUID().slice(0, 8)}`);
    await page.getByLabel("Client IP address").fill("85.143.12.7");
    await page.getByLabel("Client registered on").fill("2023-04-01");
    await page.getByRole("button", { name: "Create payment link" }).click();
    const qr = page.getByTestId("payment-link").getByTestId("link-qr");
    await expect(qr).toBeVisible();
    expect(await qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  });
});

test.describe("framing", () => {
  let attacker: Server;
  let attackerOrigin: string;

  test.beforeAll(async ({ baseURL }) => {
    // Another origin on the same site (another port of the same host), as in the review's finding.
    const html = `<!doctype html><title>other origin</title><iframe id="victim" src="${baseURL}/payouts" width="800" height="600"></iframe>`;
    attacker = createServer((_req, res) => res.writeHead(200, { "content-type": "text/html" }).end(html));
    await new Promise<void>((resolve) => attacker.listen(0, "127.0.0.1", resolve));
    attackerOrigin = `http://127.0.0.1:${(attacker.address() as AddressInfo).port}`;
  });

  test.afterAll(async () => {
    await new Promise((resolve) => attacker.close(resolve));
  });

  test("a page on another origin cannot frame the pay-outs list", async ({ page }) => {
    const refused: string[] = [];
    page.on("console", (m) => {
      if (m.text().includes("frame-ancestors")) refused.push(m.text());
    });
    await signIn(page, "admin");
    // The session cookie does reach the framed request: only the headers stop it.
    await page.goto("/payouts");
    await expect(page.getByRole("heading", { name: "Pay-outs" })).toBeVisible();

    const framed = page.waitForResponse((r) => new URL(r.url()).pathname === "/payouts");
    await page.goto(attackerOrigin);
    const response = await framed;
    expect(response.status()).toBe(200);

    // The browser refuses to show it: nothing of the page is in the frame.
    await expect.poll(() => refused.length).toBeGreaterThan(0);
    await expect(page.frameLocator("#victim").getByRole("heading", { name: "Pay-outs" })).toHaveCount(0);
    await expect(page.frameLocator("#victim").getByTestId("current-user")).toHaveCount(0);
    expect(response.headers()["x-frame-options"]).toBe("DENY");
    expect(response.headers()["content-security-policy"]).toContain("frame-ancestors 'none'");
  });
});

test.describe("error pages", () => {
  test.beforeEach(async ({ page }) => {
    await signIn(page, "finance");
  });

  test("a failing page shows what happened and the request id, inside the shell", async ({ page }) => {
    const violations = await watchPolicy(page);
    const response = (await page.goto("/error-probe"))!;
    expect(response.status()).toBe(500);
    const requestId = response.headers()["x-request-id"]!;
    expect(requestId).toMatch(UUID);

    const panel = page.getByTestId("error-panel");
    await expect(panel.getByRole("heading", { name: "Something went wrong on our side" })).toBeVisible();
    await expect(panel.getByTestId("error-request-id")).toHaveText(requestId);
    // Next's digest of the error, which the server log line carries next to the request id.
    await expect(panel.getByTestId("error-digest")).toHaveText(/^\d+$/);
    // Production hides the server's message.
    await expect(panel).not.toContainText("on purpose");
    await expect(page.getByTestId("current-user")).toBeAttached();
    await expect(panel.getByRole("button", { name: "Try again" })).toBeVisible();
    expect(await violations()).toEqual([]);
  });

  test("an unavailable database is named as such, with the id of the failing request", async ({ page }) => {
    const response = (await page.goto("/error-probe?kind=database"))!;
    const requestId = response.headers()["x-request-id"]!;
    const panel = page.getByTestId("error-panel");
    await expect(panel.getByRole("heading", { name: "The database is unavailable" })).toBeVisible();
    await expect(panel).toContainText("The database is unavailable; try again in a moment.");
    await expect(panel.getByTestId("error-request-id")).toHaveText(requestId);
    await expect(panel.getByTestId("error-digest")).toHaveCount(0);
  });

  test("after a client-side navigation the id shown is the failing request's, never the page's", async ({
    page,
  }) => {
    const document = (await page.goto("/payouts"))!;
    const documentRequestId = document.headers()["x-request-id"]!;

    // Database error: the failing (RSC) request's own id travels in the digest.
    const failing = page.waitForResponse((r) => r.url().includes("/error-probe?kind=database"));
    await page.evaluate(() => {
      (window as unknown as { next: { router: { push(h: string): void } } }).next.router.push(
        "/error-probe?kind=database",
      );
    });
    const failingRequestId = (await failing).headers()["x-request-id"]!;
    const panel = page.getByTestId("error-panel");
    await expect(panel.getByRole("heading", { name: "The database is unavailable" })).toBeVisible();
    await expect(panel.getByTestId("error-request-id")).toHaveText(failingRequestId);
    expect(failingRequestId).not.toBe(documentRequestId);

    // Any other error: only the digest, not the id of the document loaded earlier.
    await page.goto("/payouts");
    await page.evaluate(() => {
      (window as unknown as { next: { router: { push(h: string): void } } }).next.router.push("/error-probe");
    });
    await expect(panel.getByRole("heading", { name: "Something went wrong on our side" })).toBeVisible();
    await expect(panel.getByTestId("error-digest")).toHaveText(/^\d+$/);
    await expect(panel.getByTestId("error-request-id")).toHaveCount(0);
  });

  test("an unknown address shows the not-found page", async ({ page }) => {
    const violations = await watchPolicy(page);
    const response = (await page.goto("/no-such-page"))!;
    expect(response.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
    expect(await violations()).toEqual([]);
  });
});
