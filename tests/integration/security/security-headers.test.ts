import { unstable_doesMiddlewareMatch } from "next/experimental/testing/server";
import { NextRequest } from "next/server";
import { describe, expect, it } from "vitest";
import { config, proxy } from "@/proxy";
import { isUuid } from "@/lib/uuid";

// proxy.ts: each request gets its own id and each page a Content-Security-Policy with a fresh nonce,
// which Next reads from the forwarded request headers; the sign-in redirect is unchanged.
const SESSION = "authjs.session-token=anything";

function call(path: string, headers: Record<string, string> = {}) {
  return proxy(new NextRequest(new URL(path, "http://127.0.0.1:3000"), { headers }));
}

/** A request header the proxy hands on to Next (NextResponse.next({ request: { headers } })). */
const forwarded = (response: Response, name: string) => response.headers.get(`x-middleware-request-${name}`);

describe("proxy: request id and Content-Security-Policy", () => {
  it("gives a signed-in page a nonce policy and a request id, and hands both on to the app", () => {
    const response = call("/payouts", { cookie: SESSION });
    expect(response.headers.get("x-middleware-next")).toBe("1");
    const policy = response.headers.get("content-security-policy")!;
    expect(policy).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/]{22}==' 'strict-dynamic';/);
    expect(policy).toContain("frame-ancestors 'none'");
    expect(forwarded(response, "content-security-policy")).toBe(policy);
    const requestId = response.headers.get("x-request-id")!;
    expect(isUuid(requestId)).toBe(true);
    expect(forwarded(response, "x-request-id")).toBe(requestId);
  });

  it("never reuses a nonce or a request id, and replaces an id the client sent", () => {
    const responses = Array.from({ length: 50 }, () =>
      call("/operations", { cookie: SESSION, "x-request-id": "client-chosen" }),
    );
    const ids = responses.map((r) => r.headers.get("x-request-id"));
    const policies = responses.map((r) => r.headers.get("content-security-policy"));
    expect(new Set(ids).size).toBe(50);
    expect(new Set(policies).size).toBe(50);
    expect(responses.map((r) => forwarded(r, "x-request-id"))).toEqual(ids);
    expect(ids).not.toContain("client-chosen");
  });

  it.each(["/login", "/login?callbackUrl=%2Fpayouts", "/forbidden", "/api/health", "/api/auth/session"])(
    "sets the headers on %s without a session and does not redirect it",
    (path) => {
      const response = call(path);
      expect(response.headers.get("x-middleware-next")).toBe("1");
      expect(response.headers.get("content-security-policy")).toContain("'strict-dynamic'");
      expect(isUuid(response.headers.get("x-request-id")!)).toBe(true);
    },
  );

  it("still redirects a visitor without a session cookie to sign-in, with the headers", () => {
    const response = call("/payouts?status=approved");
    expect(response.status).toBe(307);
    const location = new URL(response.headers.get("location")!);
    expect(location.pathname).toBe("/login");
    expect(location.searchParams.get("callbackUrl")).toBe("/payouts?status=approved");
    expect(response.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(new URL(call("/").headers.get("location")!).search).toBe("");
  });

  it("adds upgrade-insecure-requests only behind https", () => {
    expect(call("/", { cookie: SESSION }).headers.get("content-security-policy")).not.toContain(
      "upgrade-insecure-requests",
    );
    expect(
      call("/", { cookie: SESSION, "x-forwarded-proto": "https" }).headers.get("content-security-policy"),
    ).toContain("upgrade-insecure-requests");
  });
});

describe("proxy matcher", () => {
  it.each(["/", "/operations", "/payouts/abc", "/login", "/forbidden", "/api/health", "/no-such-page"])(
    "runs the proxy for %s",
    (url) => {
      expect(unstable_doesMiddlewareMatch({ config, url })).toBe(true);
    },
  );

  it.each(["/_next/static/chunks/main.js", "/_next/image?url=x", "/favicon.ico"])(
    "leaves Next's own file %s alone",
    (url) => {
      expect(unstable_doesMiddlewareMatch({ config, url })).toBe(false);
    },
  );
});
