// Support has trace.read but not balance.read: what a recorded call says about the merchant's balance (a
// GET /balance answer, the available amount a notEnoughMoneyOnBalance refusal states) is withheld from
// them on the trace page and in the support bundle built from the same lookup; finance sees it all.
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { CopyBundleButton } from "@/components/trace/copy-bundle-button";
import { TraceResults } from "@/components/trace/trace-results";
import { can } from "@/lib/auth/permissions";
import { getDb } from "@/lib/db";
import { createPlatformClient } from "@/lib/platform/client";
import { databaseRecorder } from "@/lib/platform/record-to-db";
import { buildSupportBundle } from "@/lib/trace/bundle";
import { lookupTrace, type TraceLookup } from "@/lib/trace/lookup";
import enTrace from "@/messages/en/trace.json";
import ruTrace from "@/messages/ru/trace.json";
import { createStaff } from "../../support/mirror";
import { propsOf } from "../../support/page-text";

const session = vi.hoisted(() => ({ current: null as null | { userId: string; sessionVersion: number } }));
vi.mock("@/lib/auth/config", () => ({ auth: async () => session.current }));

const BALANCE_TRACE = randomUUID();
const REFUSAL_TRACE = randomUUID();
const REFUSED_MERCHANT_ID = `short-${randomUUID()}`;
// Figures no other record holds: the balance read's, and the available amount the refusal states.
const BALANCE = "123456.789";
const BALANCE_IN_PAYMENT = "11790123.35";
const AVAILABLE = "20.4321";
const SHORTAGE = `Not enough money on balance: required 150.5000 USDT, available ${AVAILABLE} USDT`;

const staff = {} as Record<"finance" | "support", string>;

beforeAll(async () => {
  staff.finance = (await createStaff("finance")).id;
  staff.support = (await createStaff("support")).id;
  // A balance read as the balance page makes it, recorded by the real client.
  const platform = createPlatformClient({
    baseUrl: "http://platform.test/api",
    token: "test-merchant-jwt-0000",
    recorder: databaseRecorder,
    fetch: (async () =>
      new Response(
        `{"status":"Success","traceID":"${BALANCE_TRACE}","data":{"amountInCurrencyBalance":${BALANCE},` +
          `"currencyBalance":"USDT","amountInCurrencyPayment":${BALANCE_IN_PAYMENT},"currencyPayment":"RUB",` +
          `"exchangeRate":95.5}}`,
        { status: 200, headers: { "content-type": "application/json" } },
      )) as typeof fetch,
  });
  await platform.getBalance({ actorUserId: staff.finance });
  // A pay-out the platform refused for want of balance (as lib/platform/http.ts records it).
  await getDb().apiCall.create({
    data: {
      method: "POST",
      path: "/host2host/payout",
      traceID: REFUSAL_TRACE,
      latencyMs: 40,
      actorUserId: staff.finance,
      idTransactionMerchant: REFUSED_MERCHANT_ID,
      requestBody: `{"amount":150.5,"idTransactionMerchant":"${REFUSED_MERCHANT_ID}"}`,
      responseBody: JSON.stringify({
        status: "warning",
        codeError: "notEnoughMoneyOnBalance",
        message: SHORTAGE,
        traceID: REFUSAL_TRACE,
      }),
      httpStatus: 200,
      envelopeStatus: "warning",
      codeError: "notEnoughMoneyOnBalance",
      message: SHORTAGE,
    },
  });
});

/** The trace page as this user sees it: the lookup it shows and the support bundle it offers. */
async function tracePageAs(role: keyof typeof staff, q: string) {
  session.current = { userId: staff[role], sessionVersion: 0 };
  const { default: Page } = await import("@/app/(console)/trace/page");
  const tree = await Page({ searchParams: Promise.resolve({ q }) });
  const [results] = propsOf<{ lookup: TraceLookup }>(tree, TraceResults);
  const [copy] = propsOf<{ bundle: string }>(tree, CopyBundleButton);
  expect(results?.lookup.calls).toHaveLength(1);
  return { call: results!.lookup.calls[0]!, shown: JSON.stringify(results!.lookup), bundle: copy!.bundle };
}

describe("a call's balance on the trace page", () => {
  it("support (no balance.read) sees the note instead of a balance read's answer, on the page and in the bundle", async () => {
    expect(can("support", "balance.read")).toBe(false);
    const { call, shown, bundle } = await tracePageAs("support", BALANCE_TRACE);
    expect(call).toMatchObject({
      method: "GET",
      path: "/balance",
      envelopeStatus: "Success",
      withheld: true,
    });
    expect(call.response).toBe(enTrace.withheldNeedsBalance);
    for (const text of [shown, bundle]) {
      expect(text).not.toContain(BALANCE);
      expect(text).not.toContain(BALANCE_IN_PAYMENT);
      expect(text).toContain(enTrace.withheldNeedsBalance);
    }
  });

  it("support sees the note instead of a notEnoughMoneyOnBalance refusal's message, wherever it is", async () => {
    const { call, shown, bundle } = await tracePageAs("support", REFUSAL_TRACE);
    expect(call).toMatchObject({
      codeError: "notEnoughMoneyOnBalance",
      message: enTrace.withheldNeedsBalance,
    });
    // the rest of the answer stays for support to read
    expect(call.response).toEqual({
      status: "warning",
      codeError: "notEnoughMoneyOnBalance",
      message: enTrace.withheldNeedsBalance,
      traceID: REFUSAL_TRACE,
    });
    for (const text of [shown, bundle]) expect(text).not.toContain(AVAILABLE);
  });

  it("finance (balance.read) sees both calls whole", async () => {
    const read = await tracePageAs("finance", BALANCE_TRACE);
    expect(read.call.withheld).toBe(false);
    expect(read.call.response).toMatchObject({ data: { currencyBalance: "USDT" } });
    expect(read.shown).toContain(BALANCE);
    expect(read.bundle).toContain(BALANCE);
    const refusal = await tracePageAs("finance", REFUSAL_TRACE);
    expect(refusal.call).toMatchObject({ message: SHORTAGE, withheld: false });
    expect(refusal.bundle).toContain(AVAILABLE);
    expect(refusal.shown).not.toContain(enTrace.withheldNeedsBalance);
  });

  it("words the note in the viewer's language", async () => {
    await getDb().user.update({ where: { id: staff.support }, data: { locale: "ru" } });
    try {
      const { call } = await tracePageAs("support", BALANCE_TRACE);
      expect(call.response).toBe(ruTrace.withheldNeedsBalance);
    } finally {
      await getDb().user.update({ where: { id: staff.support }, data: { locale: null } });
    }
  });

  it("withholds from a caller that does not say who looks", async () => {
    const lookup = await lookupTrace(REFUSED_MERCHANT_ID);
    expect(lookup.calls.map((c) => c.message)).toEqual([enTrace.withheldNeedsBalance]);
    expect(buildSupportBundle(await lookupTrace(BALANCE_TRACE), [])).not.toContain(BALANCE);
  });
});
