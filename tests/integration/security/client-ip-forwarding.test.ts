// Finding 2: the client IP (webhook allowlist, audit log) comes from the socket; X-Forwarded-For counts
// only when the peer is a trusted proxy, and then only the entry that proxy appended. Inside Next.js
// the app reads the header the web server wrote, never one the client sent.
import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { afterEach, describe, expect, it, vi } from "vitest";
import { getDb } from "@/lib/db";
import { sourceCheckedReceivers } from "../../support/webhook-receivers";
import { webhookBody } from "../../support/webhooks";

const requestHeaders = vi.hoisted(() => ({ current: new Headers() }));
vi.mock("next/headers", () => ({ headers: async () => requestHeaders.current }));

const clientIp = await import("@/lib/http/client-ip");
const { actorFor } = await import("@/lib/auth/actor");

const receivers = sourceCheckedReceivers({ allowedIps: ["198.51.100.7/32"] });

async function post(url: string, headers: Record<string, string>) {
  const response = await fetch(url, {
    method: "POST",
    body: webhookBody(),
    headers: { "content-type": "application/json", ...headers },
  });
  const answer = (await response.json()) as { id: string };
  const row = await getDb().webhookDelivery.findUniqueOrThrow({ where: { id: BigInt(answer.id) } });
  return { status: response.status, sourceIp: row.sourceIp, outcome: row.outcome };
}

describe("webhook allowlist and X-Forwarded-For", () => {
  it("refuses a direct request from 127.0.0.1 that claims an allowed IP in X-Forwarded-For", async () => {
    for (const forged of ["198.51.100.7", "203.0.113.1, 198.51.100.7", "::ffff:198.51.100.7"]) {
      expect(await post(receivers.direct, { "x-forwarded-for": forged }), forged).toEqual({
        status: 403,
        sourceIp: "127.0.0.1",
        outcome: "rejected",
      });
    }
    // nor through the header the web server keeps for Next.js
    expect(await post(receivers.direct, { "x-paydesk-client-ip": "198.51.100.7" })).toMatchObject({
      status: 403,
      sourceIp: "127.0.0.1",
    });
  });

  it("behind a trusted proxy, the right-most entry counts and a spoofed one to its left does not", async () => {
    expect(await post(receivers.behindProxy, { "x-forwarded-for": "198.51.100.7" })).toEqual({
      status: 200,
      sourceIp: "198.51.100.7",
      outcome: "received",
    });
    expect(await post(receivers.behindProxy, { "x-forwarded-for": "198.51.100.7, 203.0.113.9" })).toEqual({
      status: 403,
      sourceIp: "203.0.113.9",
      outcome: "rejected",
    });
    // a trusted proxy that appended nothing usable: the client is unknown, and unknown is refused
    for (const headers of [{}, { "x-forwarded-for": "198.51.100.7, not-an-ip" }] as Record<
      string,
      string
    >[]) {
      expect(await post(receivers.behindProxy, headers)).toEqual({
        status: 403,
        sourceIp: null,
        outcome: "rejected",
      });
    }
  });
});

describe("the client IP handed to Next.js", () => {
  const request = (remoteAddress: string, headers: IncomingMessage["headers"]) =>
    ({ socket: { remoteAddress }, headers }) as unknown as IncomingMessage;

  it("overwrites whatever the client sent under the header name, from the socket", () => {
    const direct = request("::ffff:203.0.113.50", {
      "x-forwarded-for": "198.51.100.7",
      "x-paydesk-client-ip": "198.51.100.7",
    });
    expect(clientIp.stampClientIp(direct, [])).toBe("203.0.113.50");
    expect(direct.headers["x-paydesk-client-ip"]).toBe("203.0.113.50");

    const proxied = request("10.0.0.5", {
      "x-forwarded-for": "198.51.100.7, 203.0.113.60",
      "x-paydesk-client-ip": "198.51.100.7",
    });
    expect(clientIp.stampClientIp(proxied, ["10.0.0.0/8"])).toBe("203.0.113.60");
    expect(proxied.headers["x-paydesk-client-ip"]).toBe("203.0.113.60");

    const unknown = request("10.0.0.5", { "x-paydesk-client-ip": "198.51.100.7" });
    expect(clientIp.stampClientIp(unknown, ["10.0.0.0/8"])).toBeNull();
    expect(unknown.headers).not.toHaveProperty("x-paydesk-client-ip");
  });

  it.each([
    ["203.0.113.5", "198.51.100.7", [], "203.0.113.5"],
    ["::ffff:127.0.0.1", "198.51.100.7", ["127.0.0.1/32"], "198.51.100.7"],
    ["127.0.0.1", "198.51.100.7, [2001:db8::9]:443", ["127.0.0.1/32"], "2001:db8::9"],
    ["127.0.0.1", "198.51.100.7, 203.0.113.8:5123", ["127.0.0.1/32"], "203.0.113.8"],
    ["127.0.0.1", "198.51.100.7,", ["127.0.0.1/32"], null],
    ["127.0.0.1", "198.51.100.7, 2001:db8::1\u202e", ["127.0.0.1/32"], null],
    ["2001:db8::1", "198.51.100.7", ["2001:db8::/32"], "198.51.100.7"],
    ["2001:db9::1", "198.51.100.7", ["2001:db8::/32"], "2001:db9::1"],
  ] as const)("peer %s, X-Forwarded-For %j, trusted %j: %s", (peer, xff, trusted, expected) => {
    expect(clientIp.clientIpFrom(peer, xff, trusted)).toBe(expected);
  });
});

describe("audit actor IP", () => {
  const user = { id: randomUUID(), email: "a@test.local", role: "admin" as const, name: null };
  afterEach(() => clientIp.markClientIpStamped(true));

  it("ignores X-Forwarded-For the client sent and reads the web server's header", async () => {
    requestHeaders.current = new Headers({
      "x-forwarded-for": "198.51.100.66",
      "x-paydesk-client-ip": "203.0.113.5",
    });
    expect((await actorFor(user)).ip).toBe("203.0.113.5");
    requestHeaders.current = new Headers({ "x-forwarded-for": "198.51.100.66" });
    expect((await actorFor(user)).ip).toBeNull();
    requestHeaders.current = new Headers({ "x-paydesk-client-ip": "not an ip" });
    expect((await actorFor(user)).ip).toBeNull();
  });

  it("records no IP when the app runs without the web server (plain next start): the header is the client's", async () => {
    clientIp.markClientIpStamped(false);
    requestHeaders.current = new Headers({
      "x-forwarded-for": "198.51.100.66",
      "x-paydesk-client-ip": "198.51.100.67",
    });
    expect((await actorFor(user)).ip).toBeNull();
  });
});
