/**
 * The per-operation webhook URL (integrationMerhcnatData.webHook) is called by the platform's servers,
 * so an address inside a network would make the platform probe it (and a merchant's staff could aim it
 * at the platform's own internal services). Refused unless the admin setting allowPrivateWebhookUrls
 * is on (a test bench whose platform runs beside the console):
 * - loopback, private, link-local, CGNAT, "this network", benchmarking, documentation, multicast and
 *   reserved IPv4 ranges; the IPv6 ones (::1, ::, fc00::/7, fe80::/10, fec0::/10, ff00::/8, 100::/64,
 *   2001::/23, 2001:db8::/32) and IPv4 carried in IPv6 (::ffff:0:0/96 mapped, ::ffff:0:0:0/96
 *   translated, ::/96 compatible, 64:ff9b::/96 NAT64, 2002::/16 6to4) when the IPv4 inside is one of
 *   the above;
 * - `localhost`, `*.localhost` and names no public resolver answers (`*.local`, `*.internal`,
 *   `*.home.arpa`, single-label names such as `http://intranet/`).
 * Always refused: schemes other than http(s), and a user name or password in the URL.
 *
 * WHATWG URL parsing does the normalising: `http://2130706433/`, `http://0x7f.1/`, `http://017700000001/`
 * and `http://127.1/` all have the hostname `127.0.0.1`; `[::ffff:127.0.0.1]` becomes `[::ffff:7f00:1]`.
 * Names are not resolved (the platform resolves them, possibly to another answer).
 */
import "server-only";
import { BlockList, isIP } from "node:net";
import { getSettings } from "@/lib/settings/settings";
import type { Problem } from "@/lib/i18n/issues";

const NON_PUBLIC_V4 = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  NON_PUBLIC_V4.addSubnet(network, prefix, "ipv4");
}

const NON_PUBLIC_V6 = new BlockList();
for (const [network, prefix] of [
  ["::", 127], // :: and ::1
  ["64:ff9b:1::", 48],
  ["100::", 64],
  ["2001::", 23],
  ["2001:db8::", 32],
  ["fc00::", 7],
  ["fe80::", 10],
  ["fec0::", 10],
  ["ff00::", 8],
] as const) {
  NON_PUBLIC_V6.addSubnet(network, prefix, "ipv6");
}

const INTERNAL_NAME = /(^|\.)(localhost|local|internal|home\.arpa|localdomain)$/;

/** The eight 16-bit groups of a canonical IPv6 address (as WHATWG URL writes it: hex, compressed). */
function ipv6Groups(address: string): number[] {
  const [head = "", tail] = address.split("::");
  const part = (s: string) => (s === "" ? [] : s.split(":").map((g) => Number.parseInt(g, 16)));
  const left = part(head);
  const right = tail === undefined ? [] : part(tail);
  return [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
}

const dotted = (high: number, low: number) => `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;

/** The IPv4 address an IPv6 address carries (mapped, compatible, NAT64, 6to4), or null. */
function embeddedIpv4(address: string): string | null {
  const g = ipv6Groups(address);
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  if (zeros(0, 5) && g[5] === 0xffff) return dotted(g[6]!, g[7]!);
  if (zeros(0, 4) && g[4] === 0xffff && g[5] === 0) return dotted(g[6]!, g[7]!);
  if (zeros(0, 6) && (g[6] !== 0 || g[7]! > 1)) return dotted(g[6]!, g[7]!);
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return dotted(g[6]!, g[7]!);
  if (g[0] === 0x2002) return dotted(g[1]!, g[2]!);
  return null;
}

/** Whether a host (as URL.hostname gives it) is an address or name outside the public internet. */
export function isNonPublicHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, "");
  if (host.startsWith("[") && host.endsWith("]")) {
    const v6 = host.slice(1, -1);
    if (isIP(v6) !== 6) return true;
    const v4 = embeddedIpv4(v6);
    return NON_PUBLIC_V6.check(v6, "ipv6") || (v4 !== null && NON_PUBLIC_V4.check(v4, "ipv4"));
  }
  if (isIP(host) === 4) return NON_PUBLIC_V4.check(host, "ipv4");
  return host === "" || !host.includes(".") || INTERNAL_NAME.test(host);
}

/**
 * Why the platform must not be given this webhook URL (a catalog key of `validation.webhookUrl` and its
 * arguments), or null when it may.
 */
export function webhookUrlProblem(raw: string, options: { allowPrivate: boolean }): Problem | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { message: "validation.webhookUrl.invalid" };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    return { message: "validation.webhookUrl.scheme" };
  if (url.username !== "" || url.password !== "") return { message: "validation.webhookUrl.credentials" };
  if (!options.allowPrivate && isNonPublicHost(url.hostname))
    return { message: "validation.webhookUrl.private", params: { host: url.hostname } };
  return null;
}

/** The webhook URL checked against the current settings; null when it may be sent. */
export async function checkWebhookUrl(raw: string): Promise<Problem | null> {
  const { allowPrivateWebhookUrls } = await getSettings();
  return webhookUrlProblem(raw, { allowPrivate: allowPrivateWebhookUrls });
}
