// Finding 14 (webhook URL, and the create action end to end): the per-operation webhook URL refuses
// loopback, private, link-local and other non-public addresses in every spelling WHATWG URL accepts,
// `localhost` and internal names, other schemes and credentials; the admin setting
// allowPrivateWebhookUrls lets private addresses through. And a pay-out whose recipient name carries
// U+202E is refused by the create action with a field error: nothing stored, nothing sent.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it, test, vi } from "vitest";
import type { Sandbox } from "../../../sandbox/index";
import { getDb } from "@/lib/db";
import { freshCard } from "../../support/cards";
import { word } from "../../support/i18n";
import type { InMemoryRecorder } from "../../support/in-memory-recorder";
import { forgetCachedSettings, saveSetting } from "@/lib/settings/settings";
import { checkWebhookUrl, webhookUrlProblem as problemOf } from "@/lib/webhooks/callback-url";
import { isolateDatabase } from "../../support/database";
import { createStaff } from "../../support/mirror";
import { clientFor, control, startSandbox } from "../../support/sandbox";

const session = vi.hoisted(() => ({ current: null as null | { userId: string; sessionVersion: number } }));
vi.mock("@/lib/auth/config", () => ({ auth: async () => session.current }));
vi.mock("next/headers", () => ({
  headers: async () => new Headers({ "x-paydesk-client-ip": "198.51.100.7" }),
}));

/** The refusal in words, as the pay-out form shows it to an English reader (null when the URL may be sent). */
const webhookUrlProblem = (url: string, options: { allowPrivate: boolean }) => word(problemOf(url, options));

/** Addresses inside a network, in the spellings a URL parser accepts: refused unless the setting allows. */
const PRIVATE: Array<[string, string]> = [
  ["loopback", "http://127.0.0.1/hook"],
  ["loopback with port", "https://127.255.255.254:8443/hook"],
  ["loopback, decimal", "http://2130706433/"],
  ["loopback, hex", "http://0x7f000001/"],
  ["loopback, hex short", "http://0x7f.1/"],
  ["loopback, octal", "http://017700000001/"],
  ["loopback, octal dotted", "http://0177.0.0.1/"],
  ["loopback, short form", "http://127.1/"],
  ["loopback, percent-encoded host", "http://%31%32%37.0.0.1/"],
  ["this network 0", "http://0/"],
  ["this network 0.0.0.0", "http://0.0.0.0:8080/"],
  ["RFC 1918 10/8", "http://10.0.0.5/hook"],
  ["RFC 1918 172.16/12 low", "http://172.16.0.1/"],
  ["RFC 1918 172.16/12 high", "http://172.31.255.255/"],
  ["RFC 1918 192.168/16", "https://192.168.1.1/"],
  ["RFC 1918 as decimal", "http://167772161/"],
  ["link-local (cloud metadata)", "http://169.254.169.254/latest/meta-data/"],
  ["CGNAT 100.64/10 low", "http://100.64.0.1/"],
  ["CGNAT 100.64/10 high", "http://100.127.255.254/"],
  ["benchmarking 198.18/15", "http://198.18.0.1/"],
  ["multicast", "http://224.0.0.1/"],
  ["broadcast", "http://255.255.255.255/"],
  ["IPv6 loopback", "http://[::1]/"],
  ["IPv6 loopback, long form", "http://[0:0:0:0:0:0:0:1]:8080/"],
  ["IPv6 unspecified", "http://[::]/"],
  ["IPv4-mapped loopback", "http://[::ffff:127.0.0.1]/"],
  ["IPv4-mapped loopback, hex", "http://[::ffff:7f00:1]/"],
  ["IPv4-mapped private", "http://[::ffff:10.0.0.1]/"],
  ["IPv4-mapped metadata", "http://[0:0:0:0:0:ffff:a9fe:a9fe]/"],
  ["IPv4-compatible loopback", "http://[::127.0.0.1]/"],
  ["IPv4-translated loopback", "http://[::ffff:0:127.0.0.1]/"],
  ["NAT64 of loopback", "http://[64:ff9b::7f00:1]/"],
  ["6to4 of a private address", "http://[2002:c0a8:101::1]/"],
  ["IPv6 link-local fe80::/10", "http://[fe80::1]/"],
  ["IPv6 link-local, upper end", "http://[febf::1]/"],
  ["IPv6 unique local fc00::/7", "http://[fc00::1]/"],
  ["IPv6 unique local fd00::/8", "http://[fd12:3456:789a::1]/"],
  ["IPv6 site-local", "http://[fec0::1]/"],
  ["IPv6 multicast", "http://[ff02::1]/"],
  ["localhost", "http://localhost/hook"],
  ["localhost, upper case with port", "http://LOCALHOST:3000/"],
  ["localhost with a trailing dot", "http://localhost./"],
  ["*.localhost", "http://paydesk.localhost/hook"],
  ["internal name", "http://metadata.google.internal/"],
  ["mDNS name", "http://printer.local/"],
  ["single-label intranet name", "http://intranet/hook"],
];

/** Refused whatever the setting says. */
const ALWAYS_REFUSED: Array<[string, string, RegExp]> = [
  ["ftp", "ftp://example.com/hook", /http:\/\/ or https:\/\//],
  ["javascript", "javascript:alert(1)", /http:\/\/ or https:\/\//],
  ["file", "file:///etc/passwd", /http:\/\/ or https:\/\//],
  ["gopher", "gopher://example.com/", /http:\/\/ or https:\/\//],
  ["user and password", "https://user:secret@example.com/hook", /user name or password/],
  ["user only", "https://user@example.com/hook", /user name or password/],
  ["password only", "https://:secret@example.com/hook", /user name or password/],
  ["not a URL", "not a url", /http\(s\) URL/],
];

const PUBLIC = [
  "https://example.com/hook",
  "https://hooks.merchant.ru/paydesk?id=1",
  "http://93.184.216.34/hook",
  "https://8.8.8.8:8443/x",
  "https://172.32.0.1/",
  "https://100.128.0.1/",
  "https://192.169.0.1/",
  "https://11.0.0.1/",
  "http://[2606:4700:4700::1111]/",
  "http://[::ffff:8.8.8.8]/",
  "https://пример.рф/hook",
  "https://localhost.example.com/",
];

describe("webhookUrlProblem", () => {
  test.each(PRIVATE)("refuses %s (%s)", (_name, url) => {
    expect(webhookUrlProblem(url, { allowPrivate: false })).toMatch(/local or private address/);
  });

  test.each(PRIVATE)("accepts %s (%s) when the setting allows private addresses", (_name, url) => {
    expect(webhookUrlProblem(url, { allowPrivate: true })).toBeNull();
  });

  test.each(ALWAYS_REFUSED)("always refuses %s (%s)", (_name, url, message) => {
    expect(webhookUrlProblem(url, { allowPrivate: false })).toMatch(message);
    expect(webhookUrlProblem(url, { allowPrivate: true })).toMatch(message);
  });

  test.each(PUBLIC)("accepts the public %s", (url) => {
    expect(webhookUrlProblem(url, { allowPrivate: false })).toBeNull();
  });

  it("names the address as the parser read it (the numeric spellings are one address)", () => {
    expect(webhookUrlProblem("http://0x7f.1/", { allowPrivate: false })).toMatch(/\(127\.0\.0\.1\)/);
    expect(webhookUrlProblem("http://[::ffff:127.0.0.1]/", { allowPrivate: false })).toMatch(
      /\(\[::ffff:7f00:1\]\)/,
    );
  });
});

// ---- through the server actions ----------------------------------------------------------------

let sandbox: Sandbox;
let recorder: InMemoryRecorder;
let restore: () => Promise<void>;
let finance: { id: string; email: string };
let admin: { id: string; email: string };
const holder = globalThis as { paydeskPlatform?: unknown };

// The setting is one row for the whole process: this file works on a database of its own.
beforeAll(async () => {
  restore = await isolateDatabase();
  forgetCachedSettings();
  sandbox = await startSandbox({ seedDemoHistory: false });
  const client = clientFor(sandbox);
  recorder = client.recorder;
  holder.paydeskPlatform = client.platform;
  await control(sandbox, "POST", "/merchants/demo/balance", { amount: "1000000" });
  finance = await createStaff("finance");
  admin = await createStaff("admin");
  session.current = { userId: finance.id, sessionVersion: 0 };
}, 60_000);
afterAll(async () => {
  holder.paydeskPlatform = undefined;
  forgetCachedSettings();
  await sandbox?.stop();
  await restore?.();
});
beforeEach(() => recorder.clear());

function validInput(overrides: Record<string, unknown> = {}) {
  return {
    paymentMethod: "toCard",
    bankName: "Сбербанк",
    recipientNumber: freshCard(),
    recipientName: "Ivan Petrov",
    amount: `${Math.floor(1000 + Math.random() * 8000)}.${Math.floor(Math.random() * 9000 + 1000)}`,
    clientID: `client-${randomUUID()}`,
    clientIP: "85.143.12.7",
    clientDateCreated: "2023-04-17",
    webhookUrl: "",
    ...overrides,
  };
}

const actions = () => import("@/lib/actions/payouts");
const db = getDb();
const platformCalls = () => recorder.calls.filter((c) => c.path.includes("/host2host/payout"));
const setAllowPrivate = async (value: boolean) =>
  expect(
    await saveSetting({ id: admin.id, email: admin.email }, "allowPrivateWebhookUrls", value),
  ).toMatchObject({ ok: true, value });

describe("the create action", () => {
  it("refuses U+202E in the recipient name with a field error; nothing stored, nothing sent", async () => {
    const a = await actions();
    const before = await db.payoutRequest.count();
    const result = await a.createPayoutRequestAction(validInput({ recipientName: "Ivan \u202Egnp.exe" }));
    expect(result).toMatchObject({
      ok: false,
      code: "invalid",
      fieldErrors: {
        recipientName: ["The recipient name contains invisible or control characters (U+202E)."],
      },
    });
    expect(await db.payoutRequest.count()).toBe(before);
    expect(platformCalls()).toHaveLength(0);
  });

  test.each([
    ["loopback in hex", "http://0x7f.1/hook", "127.0.0.1"],
    ["cloud metadata", "http://169.254.169.254/latest/meta-data/", "169.254.169.254"],
    ["IPv4-mapped private", "http://[::ffff:192.168.0.10]/", "[::ffff:c0a8:a]"],
  ])(
    "refuses a webhook URL at %s (review and create); nothing stored, nothing sent",
    async (_n, url, shown) => {
      const a = await actions();
      const before = await db.payoutRequest.count();
      for (const action of [a.reviewPayoutAction, a.createPayoutRequestAction]) {
        const result = (await action(validInput({ webhookUrl: url }))) as {
          fieldErrors?: Record<string, string[]>;
        };
        expect(result).toMatchObject({ ok: false, code: "invalid" });
        expect(result.fieldErrors?.webhookUrl?.join(" ")).toContain(`local or private address (${shown})`);
      }
      expect(await db.payoutRequest.count()).toBe(before);
      expect(recorder.calls).toHaveLength(0);
    },
  );

  it("accepts a private webhook URL once an admin allows it, and stores the parsed form", async () => {
    const a = await actions();
    expect(word(await checkWebhookUrl("http://0x7f.1/hook"))).toMatch(/local or private/);
    await setAllowPrivate(true);
    try {
      expect(await checkWebhookUrl("http://0x7f.1/hook")).toBeNull();
      const created = await a.createPayoutRequestAction(validInput({ webhookUrl: "http://0x7f.1/hook" }));
      if (!("id" in created)) throw new Error(JSON.stringify(created));
      const row = await db.payoutRequest.findUniqueOrThrow({ where: { id: created.id } });
      expect(row.webhookUrl).toBe("http://127.0.0.1/hook");
      // credentials stay refused
      expect(
        await a.reviewPayoutAction(validInput({ webhookUrl: "http://user:pw@10.0.0.1/hook" })),
      ).toMatchObject({
        ok: false,
        fieldErrors: { webhookUrl: [expect.stringMatching(/user name or password/)] },
      });
    } finally {
      await setAllowPrivate(false);
    }
    expect(word(await checkWebhookUrl("http://0x7f.1/hook"))).toMatch(/local or private/);
  });

  it("accepts a public webhook URL", async () => {
    const a = await actions();
    const created = await a.createPayoutRequestAction(
      validInput({ webhookUrl: "https://hooks.merchant.example/paydesk" }),
    );
    expect(created).toMatchObject({ ok: true });
  });

  it("the setting refuses anything but true or false", async () => {
    for (const value of ["true", 1, null, "yes"]) {
      expect(
        await saveSetting({ id: admin.id, email: admin.email }, "allowPrivateWebhookUrls", value),
      ).toMatchObject({ ok: false, code: "invalid" });
    }
  });
});
