// Pay-ins and payment links through the server actions, against the in-process sandbox: details come
// back once, links with a QR code; every bad input is refused with a message before anything is sent.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { Sandbox } from "../../../sandbox/index";
import { systemActor } from "@/lib/audit/log";
import { getDb } from "@/lib/db";
import type { PlatformClient } from "@/lib/platform/client";
import type { InMemoryRecorder } from "../../support/in-memory-recorder";
import { createStaff } from "../../support/mirror";
import { clientFor, startSandbox } from "../../support/sandbox";

const session = vi.hoisted(() => ({ current: null as null | { userId: string; sessionVersion: number } }));
vi.mock("@/lib/auth/config", () => ({ auth: async () => session.current }));
// The browser's language decides for a user with no saved preference (none: DEFAULT_LOCALE, en in tests).
const acceptLanguage = vi.hoisted(() => ({ current: null as string | null }));
vi.mock("next/headers", () => ({
  headers: async () =>
    new Headers({
      "x-paydesk-client-ip": "198.51.100.7",
      ...(acceptLanguage.current ? { "accept-language": acceptLanguage.current } : {}),
    }),
}));

const { createPayInAction, createPaymentLinkAction } = await import("@/lib/actions/payins");
const { createPayIn } = await import("@/lib/payins/create");

let sandbox: Sandbox;
let recorder: InMemoryRecorder;
let platform: PlatformClient;
const db = getDb();

beforeAll(async () => {
  sandbox = await startSandbox({ seedDemoHistory: false });
  const client = clientFor(sandbox);
  recorder = client.recorder;
  platform = client.platform;
  (globalThis as { paydeskPlatform?: unknown }).paydeskPlatform = client.platform;
  const finance = await createStaff("finance");
  session.current = { userId: finance.id, sessionVersion: 0 };
});
afterAll(async () => {
  (globalThis as { paydeskPlatform?: unknown }).paydeskPlatform = undefined;
  await sandbox.stop();
});
beforeEach(() => recorder.clear());

const validPayIn = () => ({
  requestKey: randomUUID(),
  amount: "1500.50",
  paymentMethod: "toCard",
  clientID: `shop-client-${randomUUID().slice(0, 8)}`,
  clientIP: "85.143.12.7",
  clientDateCreated: "2023-04-01",
});

describe("host-to-host pay-in", () => {
  it("creates the operation once and returns the details in the result only", async () => {
    const input = validPayIn();
    const result = await createPayInAction(input);
    expect(result).toMatchObject({ ok: true, amount: "1500.5", currency: "RUB" });
    if (!result.ok || !("details" in result)) throw new Error("expected a created pay-in");
    expect(result.details?.number).toBeTruthy();
    expect(result.details?.bankName).toBeTruthy();
    expect(result.traceID).toBeTruthy();
    const op = await db.operation.findUniqueOrThrow({ where: { id: result.operationId } });
    expect(op).toMatchObject({
      typeOperation: "payIn",
      status: "created",
      idTransactionMerchant: `payin-${input.requestKey}`,
    });

    // the same form sent again: no second operation, and the details are not handed out again
    const again = await createPayInAction(input);
    expect(again).toMatchObject({ ok: true, operationId: result.operationId, details: null });
    expect(recorder.calls.filter((c) => c.path === "/host2host/payin")).toHaveLength(1);

    const entries = await db.auditLog.findMany({
      where: { action: "payin.create", targetId: result.operationId },
    });
    expect(entries.length).toBeGreaterThanOrEqual(1);
    expect(entries[0]!.ip).toBe("198.51.100.7");
    // the audit never holds the transfer details
    expect(JSON.stringify(entries.map((e) => [e.before, e.after]))).not.toContain(result.details!.number!);
  });

  it("maps a platform refusal to a message with the traceID", async () => {
    const result = await createPayInAction({ ...validPayIn(), paymentMethod: "kzt_c2c" });
    expect(result).toMatchObject({ ok: false, code: "rejected", codeError: "noSuitableTariffForRequest" });
    if (result.ok || !("traceID" in result)) throw new Error("expected a rejection");
    expect(result.message).toMatch(/tariff/);
    expect(result.traceID).toBeTruthy();
  });

  it("a zero-padded IP octet is refused on the field, naming the number; nothing is stored or sent", async () => {
    const input = { ...validPayIn(), clientIP: "85.143.12.07" };
    const result = await createPayInAction(input);
    expect(result).toMatchObject({ ok: false, code: "invalid" });
    if (result.ok || !("fieldErrors" in result)) throw new Error("expected field errors");
    expect(result.fieldErrors.clientIP).toEqual([
      "85.143.12.07 has a number written with a leading zero (07): write each number without leading zeros, such as 85.143.12.7. The platform refuses zero-padded addresses.",
    ]);
    await nothingCreated(input.requestKey);
  });

  it("a request Paydesk refuses before sending is rejected with its field, not 'try again', and settled", async () => {
    // past the form (an older form, another caller): the request schema refuses it, nothing is sent
    const requestKey = randomUUID();
    const input = { ...validPayIn(), requestKey, clientIP: "85.143.12.07", paymentMethod: "toCard" as const };
    const result = await createPayIn(platform, systemActor, input);
    expect(result).toEqual({
      ok: false,
      code: "rejected",
      codeError: null,
      message:
        "Paydesk did not send this request: the value of clientIP is not in a form the platform accepts. Correct it and send the form again.",
      platformMessage: null,
      traceID: null,
    });
    expect(recorder.calls).toHaveLength(0);
    expect(
      await db.creationIntent.findUniqueOrThrow({ where: { idTransactionMerchant: `payin-${requestKey}` } }),
    ).toMatchObject({ state: "rejected", lastMessage: expect.stringMatching(/clientIP/) });
    const entry = await db.auditLog.findFirstOrThrow({
      where: { action: "payin.create", targetId: `payin-${requestKey}` },
    });
    expect(entry.after).toMatchObject({ outcome: "rejected" });
  });

  it("takes an amount typed with a comma and a group space; the platform gets the plain decimal", async () => {
    const result = await createPayInAction({ ...validPayIn(), amount: "1\u00a0500,50" });
    expect(result).toMatchObject({ ok: true, amount: "1500.5" });
    const sent = recorder.calls.find((c) => c.path === "/host2host/payin");
    expect(sent?.requestBody).toMatch(/"amount":1500\.5[,}]/);
  });
});

describe("in Russian (a browser asking for ru, no saved preference)", () => {
  beforeEach(() => {
    acceptLanguage.current = "ru-RU,ru;q=0.9,en;q=0.8";
  });
  afterAll(() => {
    acceptLanguage.current = null;
  });

  it("an ambiguous amount is refused in Russian and nothing is sent", async () => {
    const input = { ...validPayIn(), amount: "1.500,50" };
    const result = await createPayInAction(input);
    expect(result).toMatchObject({ ok: false, code: "invalid", message: "Проверьте выделенные поля." });
    if (result.ok || !("fieldErrors" in result)) throw new Error("expected field errors");
    expect(result.fieldErrors.amount).toEqual([
      "Сумму можно прочитать двояко. Запишите её без разделителя тысяч и с одним десятичным разделителем: 1500,50 или 1500.50.",
    ]);
    await nothingCreated(input.requestKey);
  });

  it("a zero-padded IP octet is refused in Russian, naming the number", async () => {
    const input = { ...validPayIn(), clientIP: "::ffff:85.143.012.7" };
    const result = await createPayInAction(input);
    if (result.ok || !("fieldErrors" in result)) throw new Error("expected field errors");
    expect(result.fieldErrors.clientIP).toEqual([
      "В адресе ::ffff:85.143.012.7 есть число с ведущим нулём (012): запишите каждое число без ведущих нулей, например 85.143.12.7. Платформа не принимает адреса с ведущими нулями.",
    ]);
    await nothingCreated(input.requestKey);
  });

  it("a platform refusal is explained in Russian, the platform's own message beside it unchanged", async () => {
    const result = await createPayInAction({ ...validPayIn(), paymentMethod: "kzt_c2c" });
    if (result.ok || result.code !== "rejected") throw new Error("expected a rejection");
    expect(result.message).toBe(
      "Способа оплаты kzt_c2c нет в тарифе мерчанта. Выберите другой способ или попросите менеджера добавить его в тариф.",
    );
    const platformSaid = recorder.calls.find((c) => c.path === "/host2host/payin")?.message;
    expect(platformSaid).toBeTruthy();
    expect(result.platformMessage).toBe(platformSaid);
  });
});

describe("payment links", () => {
  it("prepare: returns the link and a QR code; the operation is mirrored as precreated", async () => {
    const { paymentMethod: _m, ...input } = validPayIn();
    const result = await createPaymentLinkAction({
      ...input,
      mode: "prepare",
      redirectSuccessURL: "https://shop.example/ok",
    });
    if (!result.ok || !("link" in result)) throw new Error(`expected a link, got ${JSON.stringify(result)}`);
    expect(result.link).toMatch(/^https?:\/\//);
    expect(result.qr).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(Buffer.from(result.qr!.split(",")[1]!, "base64").toString()).toContain("<svg");
    expect(recorder.calls.map((c) => c.path)).toEqual(["/paymentform/prepare"]);
    if (result.operationId) {
      const op = await db.operation.findUnique({ where: { id: result.operationId } });
      if (op) expect(op.status).toBe("precreated");
    }
  });

  it("full: fixed method, link and QR", async () => {
    const result = await createPaymentLinkAction({ ...validPayIn(), mode: "full", paymentMethod: "sbp" });
    if (!result.ok || !("link" in result)) throw new Error(`expected a link, got ${JSON.stringify(result)}`);
    expect(result.link).toMatch(/^https?:\/\//);
    expect(result.qr).toBeTruthy();
    expect(recorder.calls.map((c) => c.path)).toEqual(["/paymentform/full"]);
  });
});

const MB = "x".repeat(1_048_576);

// [case, field that must carry the message, change to a valid input]
const badPayIn: Array<[string, string, Record<string, unknown>]> = [
  ["5 decimals", "amount", { amount: "10.12345" }],
  ["exponent 1e3", "amount", { amount: "1e3" }],
  ["negative", "amount", { amount: "-10" }],
  ["zero", "amount", { amount: "0" }],
  ["empty amount", "amount", { amount: "" }],
  ["ambiguous: both separators", "amount", { amount: "1.500,50" }],
  ["ambiguous: a group of three after a comma", "amount", { amount: "1,500" }],
  ["amount as a number (wrong type)", "amount", { amount: 1500 }],
  ["amount null", "amount", { amount: null }],
  ["1 MB amount", "amount", { amount: MB }],
  ["too large", "amount", { amount: "1".repeat(25) }],
  ["unknown method", "paymentMethod", { paymentMethod: "bitcoin" }],
  ["empty method", "paymentMethod", { paymentMethod: "" }],
  ["method as a number", "paymentMethod", { paymentMethod: 7 }],
  ["placeholder clientID", "clientID", { clientID: "test" }],
  ["repeated-char clientID", "clientID", { clientID: "0000" }],
  ["empty clientID", "clientID", { clientID: "" }],
  ["1 MB clientID", "clientID", { clientID: MB }],
  ["dummy IP 0.0.0.0", "clientIP", { clientIP: "0.0.0.0" }],
  ["loopback IP", "clientIP", { clientIP: "127.0.0.1" }],
  ["not an IP", "clientIP", { clientIP: "999.1.1.1" }],
  ["zero-padded IP octet", "clientIP", { clientIP: "85.143.12.07" }],
  ["zero-padded octet in a mapped IPv6", "clientIP", { clientIP: "::ffff:085.143.12.7" }],
  ["IP as a number", "clientIP", { clientIP: 3232235777 }],
  ["epoch registration date", "clientDateCreated", { clientDateCreated: "1970-01-01" }],
  ["future registration date", "clientDateCreated", { clientDateCreated: "2999-01-01" }],
  ["impossible date", "clientDateCreated", { clientDateCreated: "2024-02-30" }],
  ["date as text", "clientDateCreated", { clientDateCreated: "yesterday" }],
  ["missing form key", "requestKey", { requestKey: undefined }],
  ["form key not a uuid", "requestKey", { requestKey: "1" }],
];

// Fields of a pay-out do not belong on a pay-in: refused as unknown, nothing sent.
const foreignFields: Array<[string, Record<string, unknown>]> = [
  ["Luhn-invalid card number", { number: "4111111111111112" }],
  ["unknown bank", { bankName: "Bank of Nowhere" }],
  ["null recipient name", { nameMediator: null }],
];

async function nothingCreated(requestKey: unknown) {
  expect(recorder.calls).toHaveLength(0);
  if (typeof requestKey === "string") {
    const intents = await db.creationIntent.count({
      where: { idTransactionMerchant: { in: [`payin-${requestKey}`, `link-${requestKey}`] } },
    });
    expect(intents).toBe(0);
  }
}

describe("bad input is refused before anything is sent", () => {
  it.each(badPayIn)("pay-in: %s", async (_name, field, change) => {
    const input = { ...validPayIn(), ...change };
    const result = await createPayInAction(input);
    expect(result).toMatchObject({ ok: false, code: "invalid" });
    if (result.ok || !("fieldErrors" in result)) throw new Error("expected field errors");
    expect(result.fieldErrors[field]?.[0]).toMatch(/\w/);
    expect(result.fieldErrors[field]![0]!.length).toBeLessThan(200);
    await nothingCreated(input.requestKey);
  });

  it.each(badPayIn.filter(([, field]) => field !== "paymentMethod"))(
    "prepare link: %s",
    async (_name, field, change) => {
      const { paymentMethod: _m, ...valid } = validPayIn();
      const input = { ...valid, mode: "prepare", ...change };
      const result = await createPaymentLinkAction(input);
      expect(result).toMatchObject({ ok: false, code: "invalid" });
      await nothingCreated(input.requestKey);
      if (!result.ok && "fieldErrors" in result) expect(result.fieldErrors[field]?.[0]).toMatch(/\w/);
    },
  );

  it.each(badPayIn)("full link: %s", async (_name, _field, change) => {
    const input = { ...validPayIn(), mode: "full", ...change };
    const result = await createPaymentLinkAction(input);
    expect(result).toMatchObject({ ok: false, code: "invalid" });
    await nothingCreated(input.requestKey);
  });

  it.each(foreignFields)("pay-in with a pay-out field: %s", async (_name, extra) => {
    const input = { ...validPayIn(), ...extra };
    expect(await createPayInAction(input)).toMatchObject({ ok: false, code: "invalid" });
    await nothingCreated(input.requestKey);
  });

  it.each([
    ["a bad redirect URL", { redirectSuccessURL: "javascript:alert(1)" }],
    ["a 1 MB redirect URL", { redirectFailURL: `https://x.example/${MB}` }],
    ["an unknown mode", { mode: "h2h" }],
    ["a prepare link with a method", { mode: "prepare", paymentMethod: "toCard" }],
  ])("link with %s", async (_name, change) => {
    const input = { ...validPayIn(), mode: "full", ...change };
    expect(await createPaymentLinkAction(input)).toMatchObject({ ok: false, code: "invalid" });
    await nothingCreated(input.requestKey);
  });

  it.each([null, "amount=10", 42, [], { ...validPayIn(), amount: { value: "10" } }])(
    "wrong shape %#",
    async (input) => {
      expect(await createPayInAction(input)).toMatchObject({ ok: false, code: "invalid" });
      expect(await createPaymentLinkAction(input)).toMatchObject({ ok: false, code: "invalid" });
      expect(recorder.calls).toHaveLength(0);
    },
  );
});
