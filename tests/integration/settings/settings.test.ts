// Settings: each key validated and audited (the webhook bearer token never recorded nor sent back), and
// the "test connection" button against the sandbox and against a dead address.
import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { Sandbox } from "../../../sandbox/index";
import { getDb } from "@/lib/db";
import { forgetCachedSettings, getSettings, saveSetting, toPublicSettings } from "@/lib/settings/settings";
import { Decimal } from "@/lib/money/decimal";
import { createPlatformClient } from "@/lib/platform/client";
import { createStaff } from "../../support/mirror";
import { clientFor, startSandbox } from "../../support/sandbox";
import { isolateDatabase } from "../../support/database";

const session = vi.hoisted(() => ({ current: null as null | { userId: string; sessionVersion: number } }));
vi.mock("@/lib/auth/config", () => ({ auth: async () => session.current }));
vi.mock("next/headers", () => ({
  headers: async () => new Headers({ "x-paydesk-client-ip": "198.51.100.9", host: "paydesk.test:3000" }),
}));

const { saveSettingAction, testConnectionAction } = await import("@/lib/actions/settings");

let sandbox: Sandbox;
let restore: () => Promise<void>;
let adminId: string;
const holder = globalThis as { paydeskPlatform?: unknown };

// Settings are one table for the whole process: this file works on a database of its own.
beforeAll(async () => {
  restore = await isolateDatabase();
  sandbox = await startSandbox({ seedDemoHistory: false });
  const admin = await createStaff("admin");
  adminId = admin.id;
  session.current = { userId: admin.id, sessionVersion: 0 };
});
afterAll(async () => {
  holder.paydeskPlatform = undefined;
  await sandbox.stop();
  await restore();
});

const actor = () => ({ id: adminId, email: "admin@test.local", ip: "198.51.100.9" });

describe("saveSetting", () => {
  it("stores each key, audits before/after and applies at once", async () => {
    expect(await saveSettingAction({ key: "stuckOperationMinutes", value: "45" })).toMatchObject({
      ok: true,
      value: 45,
    });
    expect((await getSettings()).stuckOperationMinutes).toBe(45);
    expect(
      await saveSettingAction({
        key: "webhookAllowedIps",
        value: ["203.0.113.0/24", "2001:db8::1", "203.0.113.0/24"],
      }),
    ).toMatchObject({ ok: true, value: ["203.0.113.0/24", "2001:db8::1"] });
    expect(await saveSettingAction({ key: "autoApproveBelow", value: "1000.50" })).toMatchObject({
      ok: true,
    });
    expect(await saveSettingAction({ key: "twoApprovalsAbove", value: "50000" })).toMatchObject({ ok: true });
    const entry = await getDb().auditLog.findFirstOrThrow({
      where: { action: "settings.update", targetId: "stuckOperationMinutes" },
      orderBy: { id: "desc" },
    });
    expect(entry).toMatchObject({
      actorUserId: adminId,
      ip: "198.51.100.9",
      before: { stuckOperationMinutes: 60 },
      after: { stuckOperationMinutes: 45 },
    });
    // a threshold can be removed
    expect(await saveSettingAction({ key: "autoApproveBelow", value: null })).toMatchObject({
      ok: true,
      value: null,
    });
  });

  it("never records nor returns the webhook bearer token; it can be replaced and cleared", async () => {
    const token = `tok-${randomUUID()}`;
    const saved = await saveSettingAction({ key: "webhookBearerToken", value: token });
    expect(saved).toEqual({ ok: true, key: "webhookBearerToken", value: true });
    expect(JSON.stringify(saved)).not.toContain(token);
    expect((await getSettings()).webhookBearerToken).toBe(token);
    expect(toPublicSettings(await getSettings())).not.toHaveProperty("webhookBearerToken");
    expect(JSON.stringify(toPublicSettings(await getSettings()))).not.toContain(token);
    const entries = await getDb().auditLog.findMany({ where: { targetId: "webhookBearerToken" } });
    expect(entries.at(-1)).toMatchObject({ before: { configured: false }, after: { configured: true } });
    expect(JSON.stringify(entries.map((e) => [e.before, e.after]))).not.toContain(token);

    expect(await saveSettingAction({ key: "webhookBearerToken", value: null })).toEqual({
      ok: true,
      key: "webhookBearerToken",
      value: false,
    });
    forgetCachedSettings();
    expect((await getSettings()).webhookBearerToken).toBeNull();
  });

  it.each([
    ["1e3", "Enter a whole number of minutes, digits only."],
    ["1.5", "Enter a whole number of minutes, digits only."],
    ["0", "At least 1 minute."],
    ["99999", "At most 10080 minutes (one week)."],
  ])("minutes %s: %s", async (value, message) => {
    expect(await saveSetting(actor(), "stuckOperationMinutes", value)).toMatchObject({ ok: false, message });
  });

  it("refuses an auto-approval limit above the two-approvals limit", async () => {
    await saveSetting(actor(), "twoApprovalsAbove", "1000");
    const r = await saveSetting(actor(), "autoApproveBelow", "5000");
    expect(r).toMatchObject({ ok: false, message: expect.stringMatching(/cannot be above/) });
  });

  it("keeps the order between settings saved at the same time (two admins, two tabs)", async () => {
    await saveSetting(actor(), "autoApproveBelow", "100");
    await saveSetting(actor(), "twoApprovalsAbove", "1000");
    await saveSetting(actor(), "apiCallRetentionDays", 30);
    await saveSetting(actor(), "failedApiCallRetentionDays", 365);
    const results = await Promise.all([
      saveSetting(actor(), "autoApproveBelow", "500"),
      saveSetting(actor(), "twoApprovalsAbove", "200"),
      saveSetting(actor(), "apiCallRetentionDays", 300),
      saveSetting(actor(), "failedApiCallRetentionDays", 60),
    ]);
    forgetCachedSettings();
    const s = await getSettings();
    await saveSetting(actor(), "autoApproveBelow", null);
    await saveSetting(actor(), "failedApiCallRetentionDays", 365);
    expect(results.filter((r) => r.ok)).toHaveLength(2);
    expect(new Decimal(s.autoApproveBelow!).lessThanOrEqualTo(s.twoApprovalsAbove!)).toBe(true);
    expect(s.failedApiCallRetentionDays).toBeGreaterThanOrEqual(s.apiCallRetentionDays);
  });

  it("keeps failed calls and refused webhooks at least as long as the rest, and says which bound holds", async () => {
    await saveSetting(actor(), "apiCallRetentionDays", 90);
    await saveSetting(actor(), "failedApiCallRetentionDays", 365);
    const audits = await getDb().auditLog.count();
    expect(await saveSetting(actor(), "failedApiCallRetentionDays", 30)).toMatchObject({
      ok: false,
      message: "At least 90 days: failed calls and refused webhooks are kept at least as long as the others.",
    });
    expect(await saveSetting(actor(), "apiCallRetentionDays", "400")).toMatchObject({
      ok: false,
      message: "At most 365 days, the period for failed calls or refused webhooks: lengthen that one first.",
    });
    expect(await saveSetting(actor(), "webhookRetentionDays", 400, "ru")).toMatchObject({
      ok: false,
      message:
        "Не более 365 дней — срока хранения неудачных вызовов или отклонённых вебхуков: сначала увеличьте его.",
    });
    expect(await saveSetting(actor(), "refusedWebhookRetentionDays", 21, "ru")).toMatchObject({
      ok: false,
      message: "Не менее 90 дней: неудачные вызовы и отклонённые вебхуки хранятся не меньше остальных.",
    });
    expect(await getDb().auditLog.count()).toBe(audits);
    forgetCachedSettings();
    expect(await getSettings()).toMatchObject({
      apiCallRetentionDays: 90,
      failedApiCallRetentionDays: 365,
      webhookRetentionDays: 90,
      refusedWebhookRetentionDays: 365,
    });
    // Equal periods are in order; the pairs are independent of each other.
    expect(await saveSetting(actor(), "failedApiCallRetentionDays", 90)).toMatchObject({ ok: true });
    expect(await saveSetting(actor(), "webhookRetentionDays", 365)).toMatchObject({ ok: true });
    expect(await saveSetting(actor(), "refusedWebhookRetentionDays", 365)).toMatchObject({ ok: true });
  });

  // Audit of the settings' limits: an idle timeout longer than the session's whole lifetime was
  // accepted (a session ends at its lifetime anyway: the timeout would never apply).
  it("keeps the idle timeout within the session lifetime, and says which bound holds", async () => {
    forgetCachedSettings();
    expect(await getSettings()).toMatchObject({ sessionLifetimeMinutes: 720, sessionIdleMinutes: 30 });
    const audits = await getDb().auditLog.count();
    expect(await saveSettingAction({ key: "sessionIdleMinutes", value: "721" })).toMatchObject({
      ok: false,
      code: "invalid",
      message: "At most 720 minutes, the session's whole lifetime: a session ends then anyway.",
    });
    expect(await saveSetting(actor(), "sessionLifetimeMinutes", 29)).toMatchObject({
      ok: false,
      message: "At least 30 minutes, the idle timeout: shorten that one first.",
    });
    expect(await saveSetting(actor(), "sessionIdleMinutes", 1440, "ru")).toMatchObject({
      ok: false,
      message: "Не более 720 минут — всего срока сеанса: к этому времени сеанс всё равно завершится.",
    });
    expect(await saveSetting(actor(), "sessionLifetimeMinutes", "21", "ru")).toMatchObject({
      ok: false,
      message: "Не менее 30 минут — времени бездействия: сначала уменьшите его.",
    });
    expect(await getDb().auditLog.count()).toBe(audits);
    forgetCachedSettings();
    expect(await getSettings()).toMatchObject({ sessionLifetimeMinutes: 720, sessionIdleMinutes: 30 });
    // Equal is in order; the idle timeout first, then the lifetime, goes down to the minimum.
    expect(await saveSetting(actor(), "sessionIdleMinutes", 720)).toMatchObject({ ok: true });
    expect(await saveSetting(actor(), "sessionIdleMinutes", 15)).toMatchObject({ ok: true });
    expect(await saveSetting(actor(), "sessionLifetimeMinutes", 15)).toMatchObject({ ok: true });
    expect(await saveSetting(actor(), "sessionLifetimeMinutes", 720)).toMatchObject({ ok: true });
    expect(await saveSetting(actor(), "sessionIdleMinutes", 30)).toMatchObject({ ok: true });
  });

  const MB = "x".repeat(1_048_576);
  const bad: Array<[string, string, unknown]> = [
    ["threshold with 5 decimals", "autoApproveBelow", "10.12345"],
    ["threshold 1e3", "autoApproveBelow", "1e3"],
    ["negative threshold", "twoApprovalsAbove", "-5"],
    ["zero threshold", "twoApprovalsAbove", "0"],
    ["empty threshold", "twoApprovalsAbove", ""],
    ["threshold as a number", "twoApprovalsAbove", 1000],
    ["1 MB threshold", "twoApprovalsAbove", MB],
    ["minutes 1e3", "stuckOperationMinutes", "1e3"],
    ["minutes 1.5", "stuckOperationMinutes", "1.5"],
    ["negative minutes", "stuckOperationMinutes", "-5"],
    ["zero minutes", "stuckOperationMinutes", 0],
    ["empty minutes", "stuckOperationMinutes", ""],
    ["minutes too large", "stuckOperationMinutes", 99_999],
    ["minutes as an object", "stuckOperationMinutes", { minutes: 5 }],
    ["retention days with a NUL", "apiCallRetentionDays", "90\u0000"],
    ["retention days behind a bidi override", "failedApiCallRetentionDays", "\u202e365"],
    ["retention days below the week", "webhookRetentionDays", 6],
    ["allowlist as text", "webhookAllowedIps", "10.0.0.0/8"],
    ["allowlist entry not an IP", "webhookAllowedIps", ["bank.example"]],
    ["allowlist CIDR bits too large", "webhookAllowedIps", ["10.0.0.0/33"]],
    ["allowlist with null", "webhookAllowedIps", [null]],
    ["allowlist 1 MB entry", "webhookAllowedIps", [MB]],
    ["token too short", "webhookBearerToken", "short"],
    ["token with spaces", "webhookBearerToken", "a token with spaces in it"],
    ["token as a number", "webhookBearerToken", 1234567890123456789],
    ["1 MB token", "webhookBearerToken", MB],
  ];

  it.each(bad)("%s is refused with a message and changes nothing", async (_name, key, value) => {
    const before = await getDb().setting.findUnique({ where: { key } });
    const audits = await getDb().auditLog.count();
    const result = await saveSettingAction({ key, value });
    expect(result).toMatchObject({ ok: false, code: "invalid" });
    if (result.ok) return;
    const message = ("fieldErrors" in result && result.fieldErrors.value?.[0]) || result.message;
    expect(message).toMatch(/\w/);
    expect(message.length).toBeLessThan(200);
    expect(await getDb().setting.findUnique({ where: { key } })).toEqual(before);
    expect(await getDb().auditLog.count()).toBe(audits);
  });

  it.each([
    ["unknown key", { key: "platformToken", value: "x" }],
    ["no key", { value: "x" }],
    ["extra field", { key: "stuckOperationMinutes", value: 5, other: 1 }],
    ["not an object", "stuckOperationMinutes=5"],
    ["null", null],
  ])("%s is refused", async (_name, input) => {
    expect(await saveSettingAction(input)).toMatchObject({ ok: false, code: "invalid" });
  });
});

describe("test connection", () => {
  it("reads the bank directory from the sandbox and reports latency and traceID", async () => {
    holder.paydeskPlatform = clientFor(sandbox).platform;
    const r = await testConnectionAction();
    expect(r).toMatchObject({ ok: true, detail: expect.stringMatching(/banks/) });
    if (!("latencyMs" in r)) throw new Error("expected a test result");
    expect(r.latencyMs).toBeGreaterThanOrEqual(0);
    expect(r.traceID).toMatch(/[0-9a-f-]{36}/);
  });

  it("reports a wrong token as such, without the token", async () => {
    holder.paydeskPlatform = createPlatformClient({
      baseUrl: sandbox.url,
      token: "wrong-token-value",
      timeoutMs: 2000,
    });
    const r = await testConnectionAction();
    expect(r).toMatchObject({ ok: false, message: expect.stringMatching(/token/) });
    expect(JSON.stringify(r)).not.toContain("wrong-token-value");
  });

  it("reports an unreachable platform", async () => {
    holder.paydeskPlatform = createPlatformClient({
      baseUrl: "http://127.0.0.1:9",
      token: "t",
      timeoutMs: 500,
      retry: { attempts: 1 },
    });
    expect(await testConnectionAction()).toMatchObject({
      ok: false,
      message: expect.stringMatching(/reached|time/),
    });
  });
});

describe("test connection: what each click may cost", () => {
  afterEach(() => {
    session.current = { userId: adminId, sessionVersion: 0 };
    vi.useRealTimers();
  });

  it("calls the platform at most 6 times a minute per user, then refuses in words until the next minute", async () => {
    const now = Date.now();
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(now - (now % 60_000) + 30_000);
    let calls = 0;
    holder.paydeskPlatform = { getBanks: async () => ((calls += 1), { banks: [], traceID: "t-banks" }) };
    const admin = await createStaff("admin");
    session.current = { userId: admin.id, sessionVersion: 0 };
    for (let i = 0; i < 6; i++) expect(await testConnectionAction()).toMatchObject({ ok: true });
    expect(await testConnectionAction()).toEqual({
      ok: false,
      code: "rate_limited",
      message: "At most 6 connection tests a minute; wait a minute and try again.",
    });
    expect(calls).toBe(6);
    vi.setSystemTime(Date.now() + 60_000);
    expect(await testConnectionAction()).toMatchObject({ ok: true, traceID: "t-banks" });
    expect(calls).toBe(7);
  });
});

describe("webhook URL to register", () => {
  it("is the request origin + the webhook route (+ the secret segment when configured)", async () => {
    const { webhookUrlToRegister } = await import("@/lib/webhooks/endpoint");
    const { url } = webhookUrlToRegister("http://paydesk.test:3000");
    expect(url).toMatch(/^http:\/\/paydesk\.test:3000\/api\/webhooks\/platform/);
  });
});
