// The end client's anti-fraud data (clientID, clientIP, clientDateCreated) checked before anything is
// sent: the platform refuses dummy values with `fraud` (spec: Endpoints › POST /host2host/payin, rule 1).
// Run by the server actions of pay-outs, pay-ins and payment links; the forms show their messages.
// Messages are catalog keys of `validation.clientData` (lib/validation/issues.ts).
import { z } from "zod";
import { CLIENT_DATA_LIMITS } from "./limits";
import { refuseWith, textField } from "@/lib/validation/fields";
import type { Problem } from "@/lib/i18n/issues";
import { unsafeTextProblem } from "@/lib/validation/text";

const PLACEHOLDER_IDS = new Set([
  "0",
  "-",
  "null",
  "undefined",
  "none",
  "nil",
  "nan",
  "n/a",
  "na",
  "test",
  "testing",
  "client",
  "clientid",
  "user",
  "userid",
  "guest",
  "anonymous",
  "anon",
  "unknown",
  "random",
  "string",
  "id",
  "123",
  "1234",
  "12345",
  "123456",
  "xxx",
  "qwerty",
  "abc",
  "example",
  "default",
  "dummy",
  "fake",
  "placeholder",
]);

export function clientIdProblem(id: string): Problem | null {
  const v = id.trim().toLowerCase();
  if (v === "") return { message: "validation.clientData.clientId.required" };
  const unsafe = unsafeTextProblem("clientId", v);
  if (unsafe) return unsafe;
  const compact = v.replace(/[-\s]/g, "");
  if (PLACEHOLDER_IDS.has(v) || /^(.)\1*$/.test(compact) || /^random/.test(v) || /^<.*>$/.test(v))
    return { message: "validation.clientData.clientId.placeholder", params: { value: id.trim() } };
  return null;
}

function ipv4Octets(ip: string): number[] | null {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(ip);
  if (!m) return null;
  const octets = m.slice(1).map((s) => Number.parseInt(s, 10));
  return octets.every((o) => o <= 255) ? octets : null;
}

/**
 * The first zero-padded number ("07") of an address's dotted IPv4 part (a whole IPv4 address or the tail
 * of an IPv6 one), or null. Parsers disagree about "07" (decimal 7, octal 7, or refused); the request
 * schema (lib/platform/requests.ts, zod's ipv4/ipv6) refuses it, so the form refuses it first.
 */
function paddedOctet(ip: string): string | null {
  const quad = /(?:^|:)(\d{1,3}(?:\.\d{1,3}){3})$/.exec(ip)?.[1];
  return quad?.split(".").find((o) => o.length > 1 && o.startsWith("0")) ?? null;
}

/** Why an address cannot be the end client's: the name of a sentence in `validation.clientData.clientIp`. */
type IpReason =
  | "unspecified"
  | "loopback"
  | "privateNetwork"
  | "carrierNat"
  | "linkLocal"
  | "multicastOrReserved"
  | "documentation"
  | "uniqueLocal"
  | "multicast";

function ipv4Problem([a = 0, b = 0, c = 0]: number[]): IpReason | null {
  if (a === 0) return "unspecified";
  if (a === 127) return "loopback";
  if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168)) return "privateNetwork";
  if (a === 100 && b >= 64 && b <= 127) return "carrierNat";
  if (a === 169 && b === 254) return "linkLocal";
  if (a >= 224) return "multicastOrReserved";
  if (
    (a === 192 && b === 0 && c === 2) ||
    (a === 198 && b === 51 && c === 100) ||
    (a === 203 && b === 0 && c === 113)
  )
    return "documentation";
  return null;
}

/** The eight 16-bit groups of an IPv6 address (embedded IPv4 allowed), or null. */
function ipv6Groups(ip: string): number[] | null {
  let text = ip.toLowerCase();
  const v4 = /(\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3})$/.exec(text);
  if (v4?.[1]) {
    const o = ipv4Octets(v4[1]);
    if (!o) return null;
    text = `${text.slice(0, -v4[1].length)}${((o[0]! << 8) | o[1]!).toString(16)}:${((o[2]! << 8) | o[3]!).toString(16)}`;
  }
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const parse = (s: string) => (s === "" ? [] : s.split(":"));
  const head = parse(halves[0] ?? "");
  const tail = halves.length === 2 ? parse(halves[1] ?? "") : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill("0"), ...tail];
  if (!groups.every((g) => /^[0-9a-f]{1,4}$/.test(g))) return null;
  return groups.map((g) => Number.parseInt(g, 16));
}

/**
 * The IPv4 address an IPv6 one carries, or null: IPv4-compatible (::a.b.c.d), IPv4-mapped
 * (::ffff:a.b.c.d), IPv4-translated (::ffff:0:a.b.c.d), NAT64 (64:ff9b::a.b.c.d) and 6to4
 * (2002:aabb:ccdd::). Such an address reaches the IPv4 host inside it, so it is judged as that host.
 */
function embeddedIpv4(groups: number[]): number[] | null {
  const [g0, g1 = 0, g2 = 0, , g4, g5, g6 = 0, g7 = 0] = groups;
  const zero = (from: number, to: number) => groups.slice(from, to).every((g) => g === 0);
  const octets = (high: number, low: number) => [high >> 8, high & 255, low >> 8, low & 255];
  if (zero(0, 4) && ((g4 === 0 && (g5 === 0 || g5 === 0xffff)) || (g4 === 0xffff && g5 === 0)))
    return octets(g6, g7);
  if (g0 === 0x64 && g1 === 0xff9b && zero(2, 6)) return octets(g6, g7);
  if (g0 === 0x2002) return octets(g1, g2);
  return null;
}

function ipv6Problem(groups: number[]): IpReason | null {
  const [g0 = 0, g1 = 0] = groups;
  if (groups.every((g) => g === 0)) return "unspecified";
  if (groups.slice(0, 7).every((g) => g === 0) && groups[7] === 1) return "loopback";
  const v4 = embeddedIpv4(groups);
  if (v4) return ipv4Problem(v4);
  if ((g0 & 0xffc0) === 0xfe80) return "linkLocal";
  if ((g0 & 0xfe00) === 0xfc00) return "uniqueLocal";
  if ((g0 & 0xff00) === 0xff00) return "multicast";
  if (g0 === 0x2001 && g1 === 0x0db8) return "documentation";
  return null;
}

export function clientIpProblem(ip: string): Problem | null {
  const v = ip.trim();
  if (v === "") return { message: "validation.clientData.clientIp.required" };
  const v4 = ipv4Octets(v);
  const v6 = v4 ? null : v.includes(":") ? ipv6Groups(v) : null;
  if (!v4 && !v6) return { message: "validation.clientData.clientIp.invalid" };
  const padded = paddedOctet(v);
  if (padded)
    return { message: "validation.clientData.clientIp.leadingZero", params: { ip: v, octet: padded } };
  const why = v4 ? ipv4Problem(v4) : ipv6Problem(v6!);
  return why ? { message: `validation.clientData.clientIp.${why}`, params: { ip: v } } : null;
}

const DATE =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,7})?)?(Z|[+-]\d{2}:?\d{2})?)?$/i;
const EARLIEST_REGISTRATION = Date.UTC(1990, 0, 1);
const CLOCK_SKEW_MS = 5 * 60_000;

/** The registration date as a Date (a date or date-time without offset is UTC), or a message's key. */
export function parseClientDateCreated(
  value: string,
  now = Date.now(),
): { ok: true; date: Date } | { ok: false; message: string } {
  const v = value.trim();
  if (v === "") return { ok: false, message: "validation.clientData.clientDateCreated.required" };
  const m = DATE.exec(v);
  const [y, mo, d] = [Number(m?.[1]), Number(m?.[2]), Number(m?.[3])];
  const day = new Date(Date.UTC(y, mo - 1, d));
  if (!m || day.getUTCFullYear() !== y || day.getUTCMonth() !== mo - 1 || day.getUTCDate() !== d)
    return { ok: false, message: "validation.clientData.clientDateCreated.invalid" };
  const withZone = m[4] && !m[7] ? `${v.replace(" ", "T")}Z` : m[4] ? v.replace(" ", "T") : `${v}T00:00:00Z`;
  const at = new Date(withZone);
  if (Number.isNaN(at.getTime()))
    return { ok: false, message: "validation.clientData.clientDateCreated.invalid" };
  if (at.getTime() > now + CLOCK_SKEW_MS)
    return { ok: false, message: "validation.clientData.clientDateCreated.future" };
  if (at.getTime() < EARLIEST_REGISTRATION)
    return { ok: false, message: "validation.clientData.clientDateCreated.beforeEarliest" };
  return { ok: true, date: at };
}

/** The three anti-fraud fields, declared once for pay-outs, pay-ins and payment links. */
export const clientDataFields = {
  clientID: textField("clientId", CLIENT_DATA_LIMITS.clientID).superRefine(refuseWith(clientIdProblem)),
  clientIP: textField("clientIpAddress", CLIENT_DATA_LIMITS.clientIP).superRefine(
    refuseWith(clientIpProblem),
  ),
  clientDateCreated: textField("clientRegistrationDate", CLIENT_DATA_LIMITS.clientDateCreated).transform(
    (v, ctx) => {
      const parsed = parseClientDateCreated(v);
      if (parsed.ok) return parsed.date.toISOString();
      ctx.addIssue({ code: "custom", message: parsed.message });
      return z.NEVER;
    },
  ),
};
