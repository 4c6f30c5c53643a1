// The client's IP address, for the webhook allowlist, the audit log and sign-in. Only the web server
// (scripts/server.ts) sees the socket, so it decides the address once per request: from the socket's
// peer, or, when that peer is one of TRUSTED_PROXIES, from the X-Forwarded-For entry that proxy
// appended. Everything else a client sends (X-Forwarded-For it wrote itself, a header of ours) is
// ignored, since a client can write anything there.
import type { IncomingMessage } from "node:http";
import { isIP } from "node:net";
import { ipInList } from "@/lib/http/ip-allowlist";

/** The header the web server writes on every request it hands to Next.js: the client IP, or none. */
export const CLIENT_IP_HEADER = "x-paydesk-client-ip";

/**
 * Set by scripts/server.ts. Next.js runs in the same process but loads its own copy of this module,
 * so the mark lives on globalThis under a registered symbol rather than in a module variable.
 * Without it (plain `next start`) nobody overwrote the header, so whatever it says came from the client.
 */
const STAMPED = Symbol.for("paydesk.clientIpHeaderStamped");
type Marked = { [STAMPED]?: boolean };

/** Canonical text of an address (IPv4-mapped IPv6 as IPv4, a proxy's port dropped); null if not an IP. */
export function normaliseIp(value: string | null | undefined): string | null {
  let v = value?.trim() ?? "";
  const bracketed = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(v);
  if (bracketed) v = bracketed[1]!;
  else if (/^\d{1,3}(?:\.\d{1,3}){3}:\d{1,5}$/.test(v)) v = v.slice(0, v.lastIndexOf(":"));
  if (/^::ffff:/i.test(v) && isIP(v.slice(7)) === 4) v = v.slice(7);
  return isIP(v) ? v.toLowerCase() : null;
}

/**
 * The client of a request that reached this process from `socketAddress`: that peer itself, unless it
 * is a trusted proxy; then the right-most X-Forwarded-For entry (the one that proxy appended), or null
 * when it appended none or something that is not an address. Entries further left are the client's
 * own words and never count.
 */
export function clientIpFrom(
  socketAddress: string | undefined,
  forwardedFor: string | null | undefined,
  trustedProxies: readonly string[],
): string | null {
  const peer = normaliseIp(socketAddress);
  if (peer === null || !ipInList(peer, trustedProxies)) return peer;
  return normaliseIp(forwardedFor?.split(",").at(-1));
}

function headerText(value: string | string[] | undefined): string | null {
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join(", ") : value;
}

/** The client IP of a node:http request (see clientIpFrom). */
export function clientIpOfRequest(
  request: Pick<IncomingMessage, "headers" | "socket">,
  trustedProxies: readonly string[],
): string | null {
  return clientIpFrom(
    request.socket.remoteAddress,
    headerText(request.headers["x-forwarded-for"]),
    trustedProxies,
  );
}

/**
 * Writes the client IP into CLIENT_IP_HEADER before the request goes to Next.js, replacing whatever
 * the client sent under that name (the header is removed when the address is unknown).
 */
export function stampClientIp(
  request: Pick<IncomingMessage, "headers" | "socket">,
  trustedProxies: readonly string[],
): string | null {
  const ip = clientIpOfRequest(request, trustedProxies);
  if (ip === null) delete request.headers[CLIENT_IP_HEADER];
  else request.headers[CLIENT_IP_HEADER] = ip;
  return ip;
}

/** Called once by scripts/server.ts, which stamps every request it hands to Next.js. */
export function markClientIpStamped(stamped = true): void {
  (globalThis as Marked)[STAMPED] = stamped;
}

/**
 * The client IP inside Next.js (server actions, route handlers), from the header the web server wrote;
 * null (unknown) when the app runs without that server, since the header is then the client's own.
 */
export function clientIpFromHeaders(headers: { get(name: string): string | null }): string | null {
  if ((globalThis as Marked)[STAMPED] !== true) return null;
  return normaliseIp(headers.get(CLIENT_IP_HEADER));
}
