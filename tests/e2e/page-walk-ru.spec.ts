// Every console page, in Russian, for a user of each role: no text node may be an English word taken
// from the English catalog (a forgotten string), no page may log a console error (a hydration
// mismatch, a CSP refusal, a failed request), and axe finds no WCAG 2.1 A/AA violation. Raw data (code, pre, translate="no": ids, JSON bodies,
// e-mail addresses) is not text to translate and is skipped.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { AxeBuilder } from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { roles, type Role } from "../../lib/auth/permissions";

function catalogWords(locale: string): Set<string> {
  const folder = path.join(process.cwd(), "messages", locale);
  const words = new Set<string>();
  const visit = (value: unknown): void => {
    if (typeof value === "string") {
      // ICU arguments and plural keywords are not words of the text
      const text = value
        .replace(/\{[^{}\s,]+(,\s*\w+)?/g, " ")
        .replace(/\b(one|few|many|other|plural|select)\b/g, " ");
      for (const word of text.match(/[A-Za-z]{4,}/g) ?? []) words.add(word.toLowerCase());
    } else if (value && typeof value === "object") Object.values(value).forEach(visit);
  };
  for (const file of readdirSync(folder)) visit(JSON.parse(readFileSync(path.join(folder, file), "utf8")));
  return words;
}

// Words that are the same in both languages (names, codes, the platform's field names) are not clues.
const englishOnly = (() => {
  const ru = catalogWords("ru");
  return new Set([...catalogWords("en")].filter((w) => !ru.has(w)));
})();

async function signIn(page: Page, role: Role) {
  await page.goto("/login");
  await page.locator('input[name="email"]').fill(`${role}@paydesk.local`);
  await page.locator('input[type="password"]').fill(`paydesk-${role}-demo`);
  await page.locator('button[type="submit"]').first().click();
  await expect(page.getByTestId("current-user")).toBeAttached({ timeout: 20_000 });
}

/** The console's pages this user can open: the header's links, plus the first detail page of each list. */
async function pagesOf(page: Page): Promise<string[]> {
  const nav = await page
    .locator('nav a[href^="/"]')
    .evaluateAll((links) => links.map((a) => a.getAttribute("href")!));
  const details: string[] = [];
  for (const [list, pattern] of [
    ["/operations", /^\/operations\/[0-9a-f-]{36}/],
    ["/payouts", /^\/payouts\/[0-9a-f-]{36}$/],
    ["/webhooks", /^\/webhooks\/[0-9a-f-]{36}$/],
  ] as const) {
    if (!nav.includes(list)) continue;
    await page.goto(list);
    const hrefs = await page
      .locator("main a[href]")
      .evaluateAll((as) => as.map((a) => a.getAttribute("href")!));
    const first = hrefs.find((h) => pattern.test(h));
    if (first) details.push(first);
  }
  const extra = nav.includes("/payouts") ? ["/payouts/new"] : [];
  return ["/", ...nav, ...details, ...extra, "/forbidden", "/no-such-page"];
}

function englishWordsOnPage(page: Page, words: string[]) {
  return page.evaluate((englishWords) => {
    const english = new Set(englishWords);
    const found = new Set<string>();
    // data, whatever its words: e-mail addresses, URLs, ids with digits (seed-00000400, e2e-payin-failed-1),
    // and the platform's value beside its name ("На карту · toCard")
    const withoutAddresses = (text: string | null) =>
      (text ?? "")
        .replace(/\S+@\S+|https?:\/\/\S+/g, " ")
        .replace(/[\w-]*\d[\w-]*/g, " ")
        // identifiers: snake_case (WEBHOOK_PATH_SECRET) and dotted codes (user.create, the filter hint "user.")
        .replace(/\b\w*_\w*\b/g, " ")
        .replace(/\b[A-Za-z]+(?:\.[A-Za-z]+)+\b/g, " ")
        .replace(/^\s*[a-z]+\.\s*$/, " ")
        .replace(/ · [A-Za-z0-9_]+\b/g, " ");
    // ids, codes and JSON are set in monospace across the console; what a stored note quotes as it is (an
    // exception's message, an old row's sentence) and names (e-mail, a user's name) are marked translate="no"
    const skip = (el: Element | null) =>
      el?.closest("code, pre, script, style, .font-mono, [translate='no'], [data-raw]");
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (skip(node.parentElement)) continue;
      for (const word of withoutAddresses(node.textContent).match(/[A-Za-z]{4,}/g) ?? []) {
        if (english.has(word.toLowerCase()))
          found.add(`${word} ← “${node.textContent!.trim().slice(0, 60)}”`);
      }
    }
    for (const el of document.querySelectorAll("[placeholder], [title], [aria-label]")) {
      if (skip(el)) continue;
      for (const attr of ["placeholder", "title", "aria-label"]) {
        for (const word of withoutAddresses(el.getAttribute(attr)).match(/[A-Za-z]{4,}/g) ?? []) {
          if (english.has(word.toLowerCase())) found.add(`${word} ← ${attr}="${el.getAttribute(attr)}"`);
        }
      }
    }
    return [...found];
  }, words);
}

/** axe's WCAG 2.1 A and AA violations on the page, one line each: rule, impact, the first elements. */
async function accessibilityViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
    .analyze();
  return violations.map(
    (v) =>
      `${v.id} (${v.impact}): ${v.nodes
        .slice(0, 3)
        .map((n) => n.target.join(" "))
        .join(" | ")}`,
  );
}

test.use({ locale: "ru-RU" });

test("the sign-in page has no accessibility violation", async ({ page }) => {
  await page.goto("/login");
  expect(await accessibilityViolations(page)).toEqual([]);
});

for (const role of roles) {
  test(`${role}: every page reads in Russian, logs no console error and passes axe`, async ({ page }) => {
    test.setTimeout(180_000);
    const consoleErrors: string[] = [];
    page.on("console", (m) => {
      if (m.type() === "error") consoleErrors.push(`${page.url()}: ${m.text().slice(0, 300)}`);
    });
    page.on("pageerror", (e) => consoleErrors.push(`${page.url()}: ${e.message.slice(0, 300)}`));
    await signIn(page, role);
    await expect(page.locator("html")).toHaveAttribute("lang", "ru");
    const english: Record<string, string[]> = {};
    const inaccessible: Record<string, string[]> = {};
    for (const url of await pagesOf(page)) {
      const response = await page.goto(url);
      expect(response?.status(), url).toBeLessThan(url === "/no-such-page" ? 500 : 400);
      await page.waitForLoadState("networkidle");
      const found = await englishWordsOnPage(page, [...englishOnly]);
      if (found.length) english[url] = found;
      const violations = await accessibilityViolations(page);
      if (violations.length) inaccessible[url] = violations;
    }
    expect(english).toEqual({});
    expect(inaccessible).toEqual({});
    // A missing page answers 404 by design; the browser logs that one request.
    expect(consoleErrors.filter((e) => !/no-such-page: Failed to load resource/.test(e))).toEqual([]);
  });
}
