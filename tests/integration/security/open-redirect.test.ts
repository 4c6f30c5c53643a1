// Finding 4: open redirect after sign-in. `/login?callbackUrl=/\evil.example/x` (and `/<TAB>/evil…`)
// sent the browser to evil.example. One check (lib/auth/safe-callback.ts) now decides for the login
// page, the sign-in actions and Auth.js's redirect callback; here the table, then the real sign-in.
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { cliActor } from "@/lib/audit/log";
import { safeCallbackPath, safeCallbackUrl } from "@/lib/auth/safe-callback";
import { createUser } from "@/lib/users/service";
import { APP_ORIGIN, browser, followAction } from "../../support/next-request";

vi.mock("next/headers", async () => (await import("../../support/next-request")).nextHeadersModule());
vi.mock("next/navigation", async () => (await import("../../support/next-request")).nextNavigationModule());

const { signInAction } = await import("@/lib/auth/sign-in-action");

const refused = [
  ["backslash after the slash", "/\\evil.example/x"],
  ["two backslashes", "\\\\evil.example/x"],
  ["protocol-relative", "//evil.example/x"],
  ["three slashes", "///evil.example/x"],
  ["tab between the slashes", "/\t/evil.example/x"],
  ["newline between the slashes", "/\n/evil.example/x"],
  ["carriage return", "/\r/evil.example"],
  ["NUL byte", "/\u0000/evil.example"],
  ["dot segment making a protocol-relative path", "/.//evil.example/x"],
  ["dot-dot segment making a protocol-relative path", "/x/..//evil.example"],
  ["encoded slashes", "/%2F%2Fevil.example/x"],
  ["encoded slash after the slash", "/%2fevil.example"],
  ["encoded backslash", "/%5Cevil.example/x"],
  ["absolute https URL", "https://evil.example/x"],
  ["absolute URL without slashes", "https:evil.example"],
  ["scheme-relative with credentials", "//paydesk.test@evil.example/"],
  ["javascript: URL", "javascript:alert(document.cookie)"],
  ["data: URL", "data:text/html,<script>alert(1)</script>"],
  ["leading space", " //evil.example"],
  ["empty", ""],
  ["too long", `/${"a".repeat(3000)}`],
] as const;

const kept = [
  ["a path", "/operations", "/operations"],
  ["a path with a query", "/operations?status=success&page=2", "/operations?status=success&page=2"],
  ["a path with a fragment", "/trace#result", "/trace#result"],
  ["an encoded slash later in the path", "/webhooks/a%2Fb", "/webhooks/a%2Fb"],
  ["a backslash in the query", "/trace?q=a\\b", "/trace?q=a\\b"],
  ["the root", "/", "/"],
] as const;

describe("safeCallbackPath", () => {
  it.each(refused)("refuses %s", (_name, value) => {
    expect(safeCallbackPath(value)).toBe("/");
    expect(safeCallbackPath(value, APP_ORIGIN)).toBe("/");
  });

  it.each(kept)("keeps %s", (_name, value, path) => {
    expect(safeCallbackPath(value, APP_ORIGIN)).toBe(path);
  });

  it.each([
    ["an absolute URL on the app's origin", `${APP_ORIGIN}/payouts?x=1`, "/payouts?x=1"],
    ["the same host on another port", "http://paydesk.test:8080/payouts", "/"],
    ["the same host over another scheme", "https://paydesk.test/payouts", "/"],
    ["a subdomain", "http://evil.paydesk.test/payouts", "/"],
  ])("judges %s against the app's origin", (_name, value, path) => {
    expect(safeCallbackPath(value, APP_ORIGIN)).toBe(path);
  });

  it("refuses what is not a string", () => {
    for (const value of [undefined, null, 42, ["/x"], { href: "/x" }])
      expect(safeCallbackPath(value)).toBe("/");
  });
});

describe("Auth.js redirect callback", () => {
  const cases: Array<[string, string, string]> = [
    ...refused.map(([name, url]): [string, string, string] => [name, url, `${APP_ORIGIN}/`]),
    ["a path", "/operations?status=success", `${APP_ORIGIN}/operations?status=success`],
    ["a same-origin URL", `${APP_ORIGIN}/payouts`, `${APP_ORIGIN}/payouts`],
  ];
  it.each(cases)("%s", (_name, url, expected) => {
    expect(safeCallbackUrl({ url, baseUrl: APP_ORIGIN })).toBe(expected);
  });
});

describe("signing in with a callbackUrl", () => {
  const password = "correct horse battery";
  let email: string;
  beforeAll(async () => {
    email = `redirect-${randomUUID()}@example.test`;
    await createUser(cliActor, { email, role: "finance", password });
  });

  async function signInWith(callbackUrl: string) {
    browser.clear();
    const form = new FormData();
    form.set("email", email);
    form.set("password", password);
    form.set("callbackUrl", callbackUrl);
    const outcome = await followAction(() => signInAction(null, form));
    if (!("redirectedTo" in outcome)) throw new Error(`not signed in: ${JSON.stringify(outcome)}`);
    return new URL(outcome.redirectedTo);
  }

  it.each([
    ["/\\evil.example/x"],
    ["/\t/evil.example/x"],
    ["//evil.example/x"],
    ["/.//evil.example/x"],
    ["https://evil.example/x"],
  ])("%j lands on the app's home page", async (callbackUrl) => {
    const target = await signInWith(callbackUrl);
    // the URL a browser ends up on: the Location parsed as the browser parses it
    expect(target.origin).toBe(APP_ORIGIN);
    expect(target.pathname).toBe("/");
  });

  it("a same-origin path is followed", async () => {
    const target = await signInWith("/operations?status=success");
    expect(`${target.origin}${target.pathname}${target.search}`).toBe(
      `${APP_ORIGIN}/operations?status=success`,
    );
  });
});
