// Security headers. Pure functions (no secrets, no Next.js): the proxy builds each page's
// Content-Security-Policy with a fresh nonce, and scripts/server.ts puts the static headers on every
// response it sends, the webhook receiver's and Next's static files included.

/** The nonce of one response: 128 random bits, base64 (the CSP `nonce-` source accepts base64). */
export function newNonce(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64");
}

/**
 * Next.js reads the nonce from this policy when it renders the page and puts it on its own scripts
 * and inline styles; 'strict-dynamic' then trusts the chunks those scripts load. No 'unsafe-inline'
 * anywhere in production (styles set from script, as React and the charts do, are not inline styles).
 * In development React needs eval (server error stacks) and Next injects <style> tags for hot reload.
 */
export function contentSecurityPolicy({
  nonce,
  dev,
  https,
}: {
  nonce: string;
  dev: boolean;
  https: boolean;
}): string {
  const directives = [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ""}`,
    dev ? "style-src 'self' 'unsafe-inline'" : `style-src 'self' 'nonce-${nonce}'`,
    // Payment-link QR codes are data: SVG images made on the server.
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    // Only over https: on a plain-http deployment it would send every asset to a port that is not there.
    ...(https ? ["upgrade-insecure-requests"] : []),
  ];
  return directives.join("; ");
}

/** HSTS is only meaningful over https (browsers ignore it on http responses). Two years, as preload asks. */
const HSTS = "max-age=63072000; includeSubDomains";

/** Headers every response carries, pages, route handlers, static files and webhooks alike. */
export function staticSecurityHeaders({ https }: { https: boolean }): Record<string, string> {
  return {
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    // Not `no-referrer`: browsers then send `Origin: null` on same-origin POSTs and Next refuses
    // server actions whose Origin does not match the host.
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "Permissions-Policy":
      "camera=(), microphone=(), geolocation=(), payment=(), usb=(), serial=(), hid=(), display-capture=()",
    ...(https ? { "Strict-Transport-Security": HSTS } : {}),
  };
}

/**
 * True when the browser reached us over https: the configured public address is https, or the
 * request itself says so (its URL, or X-Forwarded-Proto from a TLS-terminating proxy). A forged
 * X-Forwarded-Proto on a plain-http request does no harm: browsers ignore HSTS received over http.
 */
export function servedOverHttps({
  publicBaseUrl,
  requestProtocol,
  forwardedProto,
}: {
  publicBaseUrl?: string;
  requestProtocol?: string;
  forwardedProto?: string | string[] | null;
}): boolean {
  if (publicBaseUrl?.startsWith("https:")) return true;
  if (requestProtocol === "https:" || requestProtocol === "https") return true;
  const first = (Array.isArray(forwardedProto) ? forwardedProto[0] : forwardedProto)?.split(",")[0];
  return first?.trim().toLowerCase() === "https";
}
