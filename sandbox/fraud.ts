import { BlockList, isIP } from "node:net";
import type { MerchantState } from "./state";
import type { ClientData } from "./types";

/** Anti-fraud of creation requests (POST /host2host/payin, rules 1 and 6). */

const PLACEHOLDER_IDS = new Set([
  "",
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
]);

// Compared as addresses, not as text: "::0", "0:0::0" and "::ffff:0.0.0.0" are the same dummies.
const DUMMY_IPS = new BlockList();
for (const ip of ["0.0.0.0", "127.0.0.1", "255.255.255.255"]) DUMMY_IPS.addAddress(ip, "ipv4");
for (const ip of ["::", "::1"]) DUMMY_IPS.addAddress(ip, "ipv6");

function isDummyIp(text: string): boolean {
  const mappedV4 = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(text)?.[1];
  if (mappedV4 !== undefined) return isIP(mappedV4) === 4 && DUMMY_IPS.check(mappedV4, "ipv4");
  const family = isIP(text);
  return family !== 0 && DUMMY_IPS.check(text, family === 4 ? "ipv4" : "ipv6");
}

/** Registration dates before this moment are placeholders (0001-01-01, the Unix epoch...). */
const EARLIEST_PLAUSIBLE_REGISTRATION = Date.UTC(1990, 0, 1);

export const FRAUD_WINDOW_MS = 60_000;

export function dummyClientReason(
  client: ClientData,
  registeredAtMs: number,
  nowMs: number,
): string | undefined {
  const id = client.clientID.trim().toLowerCase();
  const compact = id.replace(/[-\s]/g, "");
  if (PLACEHOLDER_IDS.has(id) || /^(.)\1*$/.test(compact) || /^random/.test(id))
    return `clientID '${client.clientID}' is a placeholder value`;
  if (isDummyIp(client.clientIP)) return `clientIP ${client.clientIP} is a dummy address`;
  if (registeredAtMs > nowMs) return "clientDateCreated is in the future";
  if (registeredAtMs < EARLIEST_PLAUSIBLE_REGISTRATION) return "clientDateCreated is a placeholder date";
  return undefined;
}

/** True when the client already made `fraudRatePerMinute` creations within the last minute. */
export function clientRateExceeded(merchant: MerchantState, clientID: string, nowMs: number): boolean {
  const recent = (merchant.clientCreations.get(clientID) ?? []).filter((at) => at > nowMs - FRAUD_WINDOW_MS);
  merchant.clientCreations.set(clientID, recent);
  return recent.length >= merchant.settings.fraudRatePerMinute;
}

export function recordClientCreation(merchant: MerchantState, clientID: string, nowMs: number): void {
  const recent = merchant.clientCreations.get(clientID);
  if (recent === undefined) merchant.clientCreations.set(clientID, [nowMs]);
  else recent.push(nowMs);
}
