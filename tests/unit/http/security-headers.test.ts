import { describe, expect, it } from "vitest";
import {
  contentSecurityPolicy,
  newNonce,
  servedOverHttps,
  staticSecurityHeaders,
} from "@/lib/http/security-headers";

const directives = (policy: string) =>
  new Map(
    policy.split(";").map((d) => {
      const [name, ...values] = d.trim().split(/\s+/);
      return [name!, values.join(" ")] as const;
    }),
  );

describe("contentSecurityPolicy", () => {
  const nonce = "AAAAAAAAAAAAAAAAAAAAAA==";

  it("in production trusts scripts by nonce only: no inline, no eval, nothing frames the console", () => {
    const policy = directives(contentSecurityPolicy({ nonce, dev: false, https: false }));
    expect(policy.get("script-src")).toBe(`'self' 'nonce-${nonce}' 'strict-dynamic'`);
    expect(policy.get("style-src")).toBe(`'self' 'nonce-${nonce}'`);
    expect(policy.get("default-src")).toBe("'self'");
    expect(policy.get("img-src")).toBe("'self' data: blob:");
    expect(policy.get("connect-src")).toBe("'self'");
    expect(policy.get("object-src")).toBe("'none'");
    expect(policy.get("base-uri")).toBe("'self'");
    expect(policy.get("form-action")).toBe("'self'");
    expect(policy.get("frame-ancestors")).toBe("'none'");
    expect(policy.has("upgrade-insecure-requests")).toBe(false);
    const text = contentSecurityPolicy({ nonce, dev: false, https: true });
    expect(text).not.toContain("unsafe-inline");
    expect(text).not.toContain("unsafe-eval");
    expect(directives(text).has("upgrade-insecure-requests")).toBe(true);
  });

  it("allows eval and inline styles only in development", () => {
    const policy = directives(contentSecurityPolicy({ nonce, dev: true, https: false }));
    expect(policy.get("script-src")).toBe(`'self' 'nonce-${nonce}' 'strict-dynamic' 'unsafe-eval'`);
    expect(policy.get("style-src")).toBe("'self' 'unsafe-inline'");
    expect(policy.get("frame-ancestors")).toBe("'none'");
  });

  it("is one header line whatever the nonce", () => {
    expect(contentSecurityPolicy({ nonce: newNonce(), dev: false, https: false })).not.toMatch(/[\r\n]/);
  });
});

describe("newNonce", () => {
  it("is 128 random bits in base64, new each time", () => {
    const nonces = Array.from({ length: 200 }, newNonce);
    for (const n of nonces) expect(n).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    expect(new Set(nonces).size).toBe(nonces.length);
  });
});

describe("staticSecurityHeaders", () => {
  it("forbids framing and sniffing, trims the referrer, turns off device features", () => {
    expect(staticSecurityHeaders({ https: false })).toEqual({
      "X-Frame-Options": "DENY",
      "X-Content-Type-Options": "nosniff",
      "Referrer-Policy": "strict-origin-when-cross-origin",
      "Permissions-Policy":
        "camera=(), microphone=(), geolocation=(), payment=(), usb=(), serial=(), hid=(), display-capture=()",
    });
  });

  it("adds HSTS only over https", () => {
    expect(staticSecurityHeaders({ https: false })).not.toHaveProperty("Strict-Transport-Security");
    expect(staticSecurityHeaders({ https: true })["Strict-Transport-Security"]).toBe(
      "max-age=63072000; includeSubDomains",
    );
  });
});

describe("servedOverHttps", () => {
  it.each([
    [{ publicBaseUrl: "https://paydesk.example.com" }, true],
    [{ publicBaseUrl: "http://paydesk.example.com" }, false],
    [{ requestProtocol: "https:" }, true],
    [{ requestProtocol: "http:" }, false],
    [{ forwardedProto: "https" }, true],
    [{ forwardedProto: "HTTPS" }, true],
    [{ forwardedProto: "https, http" }, true],
    [{ forwardedProto: "http, https" }, false],
    [{ forwardedProto: ["https"] }, true],
    [{ forwardedProto: "httpsx" }, false],
    [{ forwardedProto: null }, false],
    [{}, false],
  ])("%j -> %s", (input, expected) => {
    expect(servedOverHttps(input)).toBe(expected);
  });
});
