// Pay-ins and payment links when the platform's answer is not a plain success, against the in-process
// sandbox: a generic internalError (either dialect) leaves the form pending, never "the token"; a link
// survives a lost or minimal answer through the creation intent, and a link that was never received
// says so; a link too long for a QR code is still shown; one form sent twice at once makes one call and
// hands the single-use details to one caller; a QR code in the details is shown as an image.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { Sandbox } from "../../../sandbox/index";
import { systemActor } from "@/lib/audit/log";
import { getDb } from "@/lib/db";
import { createPlatformClient, type PlatformClient } from "@/lib/platform/client";
import { createPaymentLink, createPayIn } from "@/lib/payins/create";
import { payInSchema, prepareLinkSchema } from "@/lib/payins/schemas";
import { InMemoryRecorder } from "../../support/in-memory-recorder";
import { clientFor, control, demoToken, startSandbox } from "../../support/sandbox";

vi.mock("@/lib/auth/config", () => ({ auth: async () => null }));
const acceptLanguage = vi.hoisted(() => ({ current: null as string | null }));
vi.mock("next/headers", () => ({
  headers: async () =>
    new Headers(acceptLanguage.current ? { "accept-language": acceptLanguage.current } : {}),
}));

let sandbox: Sandbox;
let recorder: InMemoryRecorder;
let platform: PlatformClient;
const db = getDb();

beforeAll(async () => {
  sandbox = await startSandbox({ seedDemoHistory: false });
  ({ platform, recorder } = clientFor(sandbox));
});
afterAll(() => sandbox.stop());
beforeEach(async () => {
  recorder.clear();
  acceptLanguage.current = null;
  await control(sandbox, "DELETE", "/faults");
  await control(sandbox, "PATCH", "/merchants/demo", { dialect: "spec" });
});

const payIn = () =>
  payInSchema.parse({
    requestKey: randomUUID(),
    amount: "1500.50",
    paymentMethod: "toCard",
    clientID: `shop-client-${randomUUID().slice(0, 8)}`,
    clientIP: "85.143.12.7",
    clientDateCreated: "2023-04-01",
  });
function prepare() {
  const { paymentMethod: _method, ...fields } = payIn();
  return { mode: "prepare" as const, ...prepareLinkSchema.parse(fields) };
}

const intentOf = (idTransactionMerchant: string) =>
  db.creationIntent.findUniqueOrThrow({ where: { idTransactionMerchant } });
const onPlatform = async (idTransactionMerchant: string) =>
  (await platform.getOperationsByMerchantIdDeprecated(idTransactionMerchant)).operations.length;
const posts = (path: string) => recorder.calls.filter((c) => c.method === "POST" && c.path === path);

type Json = { [key: string]: unknown };
/** A client of the sandbox whose creation answers (data of a Success envelope) are rewritten first. */
function rewritingClient(rewrite: (path: string, data: Json) => Json) {
  const rewritten = new InMemoryRecorder();
  const client = createPlatformClient({
    baseUrl: sandbox.url,
    token: demoToken(sandbox),
    timeoutMs: 5_000,
    retry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 2 },
    recorder: rewritten,
    fetch: async (input, init) => {
      const response = await fetch(input, init);
      const path = new URL(String(input)).pathname;
      const text = await response.text();
      const body = JSON.parse(text) as Json;
      const creation = /\/(host2host\/payin|paymentform\/(prepare|full))$/.test(path);
      if (!creation || body.status !== "Success") return new Response(text, { status: response.status });
      body.data = rewrite(path, body.data as Json);
      return new Response(JSON.stringify(body), {
        status: response.status,
        headers: { "content-type": "application/json" },
      });
    },
  });
  return { client, recorder: rewritten };
}

describe.each(["spec", "nested"] as const)("%s dialect: internalError on a creation", (dialect) => {
  beforeEach(() => control(sandbox, "PATCH", "/merchants/demo", { dialect }));

  it("a pay-in stays pending, is not blamed on the token, and the same form creates it once later", async () => {
    await control(sandbox, "PUT", "/faults", { internalErrorRate: 1 });
    const input = payIn();
    const id = `payin-${input.requestKey}`;
    const first = await createPayIn(platform, systemActor, input);
    expect(first).toMatchObject({ ok: false, code: "pending" });
    if (first.ok) throw new Error("expected pending");
    expect(first.message).not.toMatch(/credentials|token/i);
    expect(first.message).toMatch(/internal error/i);
    expect(await intentOf(id)).toMatchObject({ state: "pending", lastCodeError: "internalError" });

    await control(sandbox, "DELETE", "/faults");
    const again = await createPayIn(platform, systemActor, input);
    expect(again).toMatchObject({ ok: true });
    expect(await onPlatform(id)).toBe(1);
    expect(await intentOf(id)).toMatchObject({ state: "confirmed" });
  });

  it("a payment link stays pending too", async () => {
    await control(sandbox, "PUT", "/faults", { internalErrorRate: 1 });
    const input = prepare();
    const result = await createPaymentLink(platform, systemActor, input);
    expect(result).toMatchObject({ ok: false, code: "pending" });
    expect(await intentOf(`link-${input.requestKey}`)).toMatchObject({ state: "pending" });
  });
});

describe("the payment link kept with the creation intent", () => {
  it("an answer lost after the platform created it: the link cannot come back, and the result says so", async () => {
    await control(sandbox, "PUT", "/faults", { commitThenDropRate: 1 });
    const input = prepare();
    const result = await createPaymentLink(platform, systemActor, input);
    expect(await onPlatform(`link-${input.requestKey}`)).toBe(1);
    expect(result).toMatchObject({ ok: true, link: null, qr: null, linkLost: true });
    if (!result.ok || !("linkLost" in result)) throw new Error("expected a link result");
    expect(result.operationId).toBeTruthy();
  });

  it("a minimal answer (link, id, status): the link is shown on the first answer and again on a resubmit", async () => {
    const { client } = rewritingClient((_path, data) => ({
      linkPaymentForm: data.linkPaymentForm,
      id: data.id,
      status: data.status,
    }));
    const input = prepare();
    const first = await createPaymentLink(client, systemActor, input);
    expect(first).toMatchObject({ ok: true, link: expect.stringMatching(/^http/), linkLost: false });
    if (!first.ok || !("link" in first)) throw new Error("expected a link");
    expect(await intentOf(`link-${input.requestKey}`)).toMatchObject({ linkPaymentForm: first.link });
    const again = await createPaymentLink(client, systemActor, input);
    expect(again).toMatchObject({ ok: true, link: first.link, operationId: first.operationId });
  });

  it("a link too long for a QR code is shown without one (the form is created and audited once)", async () => {
    const long = `https://pay.example/payment/${"a".repeat(5000)}`;
    const { client } = rewritingClient((_path, data) => ({ ...data, linkPaymentForm: long }));
    const input = prepare();
    const result = await createPaymentLink(client, systemActor, input);
    expect(result).toMatchObject({ ok: true, link: long, qr: null });
  });
});

describe("the single-use details", () => {
  it("one form sent twice at once: one call to the platform, the details handed to one caller only", async () => {
    const input = payIn();
    const results = await Promise.all([
      createPayIn(platform, systemActor, input),
      createPayIn(platform, systemActor, input),
    ]);
    expect(posts("/host2host/payin")).toHaveLength(1);
    expect(results.every((r) => r.ok)).toBe(true);
    const withDetails = results.filter((r) => r.ok && "details" in r && r.details !== null);
    expect(withDetails).toHaveLength(1);
    expect(results.filter((r) => r.ok && "alreadySent" in r && r.alreadySent)).toHaveLength(1);
  });

  it("a first answer without details is not taken for a form sent again", async () => {
    const { client } = rewritingClient((_path, data) => {
      const { paymentDetailsData: _details, ...rest } = data;
      return rest;
    });
    const result = await createPayIn(client, systemActor, payIn());
    expect(result).toMatchObject({ ok: true, details: null, alreadySent: false });
  });

  it("a QR code sent in the details is made an image to show the client", async () => {
    const { client } = rewritingClient((_path, data) => ({
      ...data,
      paymentDetailsData: { ...(data.paymentDetailsData as Json), qRcode: "KZQR|000201|amount=1500.5" },
    }));
    const result = await createPayIn(client, systemActor, payIn());
    if (!result.ok || !("details" in result) || !result.details) throw new Error("expected details");
    expect(result.details.qRcode).toBe("KZQR|000201|amount=1500.5");
    expect(result.details.qRcodeImage).toMatch(/^data:image\/svg\+xml;base64,/);
  });
});
