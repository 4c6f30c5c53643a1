import { chromium } from "@playwright/test";

export type FirstLoad = {
  path: string;
  /** Where the browser ended up (a redirect to /login means the cookie was not accepted). */
  finalPath: string;
  /** HTTP status of the page itself. */
  status: number;
  scripts: number;
  /** Script responses that were not 2xx (e.g. a build replaced under the running server). */
  failedScripts: number;
  /** Script bodies as they crossed the wire (gzip when the server compresses). */
  encodedBytes: number;
  decodedBytes: number;
  /** Server-side libraries found in the page's scripts (SERVER_LIBRARIES): none belongs in a browser. */
  serverLibraries: string[];
};

/** Every page of the console (detail pages need an id and share their list page's chunks). */
export const CONSOLE_PAGES = [
  "/",
  "/operations",
  "/payins",
  "/payouts",
  "/payouts/new",
  "/balance",
  "/statements",
  "/trace",
  "/webhooks",
  "/reconciliation",
  "/settings",
  "/admin/users",
  "/admin/audit",
  "/account/password",
];

/** The budget: first-load JavaScript of every page, gzip as served. */
export const FIRST_LOAD_BUDGET_KB = 200;

// Validation and exact arithmetic run on the server; forms get worded messages and amounts as text. In
// a browser zod would also probe `new Function`, which the Content-Security-Policy refuses.
const SERVER_LIBRARIES: Record<string, string> = { zod: "_zod", "decimal.js": "[DecimalError]" };

const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

/** "a=1; b=2" as Playwright cookies for the server's host. */
function parseCookies(cookie: string, baseUrl: string) {
  return cookie
    .split(";")
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      const eq = part.indexOf("=");
      if (eq <= 0) throw new Error(`cookie "${part}" is not name=value`);
      return { name: part.slice(0, eq), value: part.slice(eq + 1), url: baseUrl };
    });
}

/**
 * JavaScript a signed-in browser downloads to show each page with an empty cache: the sum of the script
 * responses' bodies as served (gzip or brotli when the server compresses, i.e. what crosses the wire).
 */
export async function measureFirstLoad(
  baseUrl: string,
  cookie: string,
  paths: string[],
): Promise<FirstLoad[]> {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: CHROMIUM_ARGS,
  });
  try {
    const results: FirstLoad[] = [];
    for (const path of paths) {
      // A fresh context per page: nothing cached from the previous one.
      const context = await browser.newContext();
      await context.addCookies(parseCookies(cookie, baseUrl));
      const page = await context.newPage();
      const scripts: Array<Promise<{ ok: boolean; encoded: number; decoded: number; libraries: string[] }>> =
        [];
      page.on("requestfinished", (request) => {
        const url = new URL(request.url());
        if (request.resourceType() !== "script" && !url.pathname.endsWith(".js")) return;
        scripts.push(
          request.sizes().then(async (sizes) => {
            const response = await request.response();
            const body = await response?.body().catch(() => null);
            const text = body?.toString("utf8") ?? "";
            return {
              ok: response?.ok() ?? false,
              encoded: sizes.responseBodySize,
              decoded: body?.byteLength ?? 0,
              libraries: Object.keys(SERVER_LIBRARIES).filter((name) =>
                text.includes(SERVER_LIBRARIES[name]!),
              ),
            };
          }),
        );
      });
      const response = await page.goto(new URL(path, baseUrl).toString(), { waitUntil: "load" });
      // Chunks requested while hydrating belong to the first load too.
      await page.waitForLoadState("networkidle", { timeout: 10_000 }).catch(() => undefined);
      const finalPath = new URL(page.url()).pathname;
      const sizes = await Promise.all(scripts);
      results.push({
        path,
        finalPath,
        status: response?.status() ?? 0,
        scripts: sizes.length,
        failedScripts: sizes.filter((s) => !s.ok).length,
        encodedBytes: sizes.reduce((sum, s) => sum + s.encoded, 0),
        decodedBytes: sizes.reduce((sum, s) => sum + s.decoded, 0),
        serverLibraries: [...new Set(sizes.flatMap((s) => s.libraries))],
      });
      await context.close();
    }
    return results;
  } finally {
    await browser.close();
  }
}
