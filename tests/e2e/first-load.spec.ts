// The first-load JavaScript of every console page, as the bench measures it (gzip as served, an empty
// cache, signed in as an admin, who sees every page): within the budget, and without the libraries that
// belong on the server. A size, not a time: the same build gives the same bytes.
import { expect, test } from "@playwright/test";
import { CONSOLE_PAGES, FIRST_LOAD_BUDGET_KB, measureFirstLoad } from "../bench/console/first-load";
import { signIn } from "../bench/sign-in";

test("every console page loads at most 200 kB of JavaScript and no server library", async ({ baseURL }) => {
  test.setTimeout(120_000);
  const cookie = await signIn(baseURL!, "admin@paydesk.local", "paydesk-admin-demo");

  const pages = await measureFirstLoad(baseURL!, cookie, CONSOLE_PAGES);
  const seen = pages.map((p) => ({
    path: p.path,
    reached: p.finalPath === p.path && p.status === 200 && p.failedScripts === 0 && p.scripts > 0,
    withinBudget: p.encodedBytes <= FIRST_LOAD_BUDGET_KB * 1000,
    serverLibraries: p.serverLibraries,
    kB: Math.round(p.encodedBytes / 100) / 10,
  }));
  const expected = seen.map(({ path, kB }) => ({
    path,
    reached: true,
    withinBudget: true,
    serverLibraries: [],
    kB,
  }));
  expect(seen).toEqual(expected);
});
