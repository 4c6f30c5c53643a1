// Finding 5: raw platform bodies (webhook delivery page, trace lookup, support bundle) show recipient
// numbers masked as the operation page does; the whole body only through an audited reveal that needs
// recipients.reveal.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { getDb } from "@/lib/db";
import { can } from "@/lib/auth/permissions";
import { maskNumbersInText } from "@/lib/recipients/mask";
import { buildSupportBundle } from "@/lib/trace/bundle";
import { lookupTrace } from "@/lib/trace/lookup";
import { getDelivery, listDeliveries } from "@/lib/webhooks/inbox";
import { receiveWebhook } from "@/lib/webhooks/receive";
import { isolateDatabase } from "../../support/database";
import { createStaff } from "../../support/mirror";
import { snapshot, wireJsonOf } from "../../support/operations";
import { envelopeBody, webhookBody } from "../../support/webhooks";

const session = vi.hoisted(() => ({ current: null as null | { userId: string; sessionVersion: number } }));
vi.mock("@/lib/auth/config", () => ({ auth: async () => session.current }));
vi.mock("next/headers", () => ({
  headers: async () => new Headers({ "x-paydesk-client-ip": "198.51.100.21" }),
}));

const { revealWebhookBodyAction } = await import("@/lib/actions/webhooks");

const CARD = "4111111111111111";
const PHONE = "79161234567";
const ACCOUNT = "40817810099910004312";

let restore: () => Promise<void>;
beforeAll(async () => {
  restore = await isolateDatabase();
});
afterAll(() => restore());

async function signInAs(role: "support" | "finance" | "admin") {
  const user = await createStaff(role);
  session.current = { userId: user.id, sessionVersion: 0 };
  return user;
}

/** A pay-in webhook in the spec's envelope, its details carrying a full card number. */
function payInWebhook(): string {
  const op = JSON.parse(wireJsonOf(snapshot({ status: "in_progress" }))) as Record<string, unknown>;
  op.typeOperation = "payIn";
  op.paymentDetailsData = {
    paymentMethod: "toCard",
    bankName: "Sber",
    nameMediator: "Ivan I.",
    number: CARD,
    numberAdditional: null,
    qRcode: null,
  };
  return envelopeBody(op);
}

async function deliver(body: string): Promise<bigint> {
  const result = await receiveWebhook(
    {
      body,
      bodyBytes: Buffer.byteLength(body),
      headers: new Headers(),
      sourceIp: "203.0.113.4",
      pathSecret: null,
    },
    { pathSecret: null, maxBodyBytes: 65_536 },
  );
  return result.deliveryId;
}

describe("webhook delivery page data", () => {
  it("gives support the body with the card number masked and nothing else changed", async () => {
    const support = await signInAs("support");
    const body = payInWebhook();
    const id = await deliver(body);
    const page = await getDelivery(id);
    expect(page!.body).not.toContain(CARD);
    expect(page!.body).toBe(body.replace(`"${CARD}"`, '"************1111"'));
    expect(page!.bodyMasked).toBe(true);
    expect(can(support.role as "support", "recipients.reveal")).toBe(false);
  });

  it.each([
    [
      "nested dialect, other casing, numbers as JSON numbers",
      `{"result":{"status":"success","x-request-id":"r"},"data":{"paymentDetailsData":{"Number":${PHONE},"NumberAdditional":{"account":"${ACCOUNT}"}}}}`,
    ],
    ["escaped key", `{"data":{"paymentDetailsData":{"n\\u0075mber":"${CARD}"}}}`],
    ["a body cut short", `{"status":"Success","data":{"paymentDetailsData":{"number":"${CARD}`],
    ["a pay-out request echoed with spaces", `{ "number" : "4111 1111 1111 1111" , "bankName": "Sber" }`],
    ["text that is not JSON", `number=${CARD}&phone=+7 916 123-45-67&account=${ACCOUNT}`],
  ])("masks %s", async (_what, body) => {
    await signInAs("support");
    const id = await getDb().webhookDelivery.create({
      data: {
        headers: {},
        body,
        bodyBytes: Buffer.byteLength(body),
        outcome: "malformed",
        outcomeDetail: "x",
      },
    });
    const page = await getDelivery(id.id);
    for (const digits of [CARD, PHONE, ACCOUNT, "4111 1111 1111", "916 123-45"]) {
      expect(page!.body).not.toContain(digits);
    }
    expect(page!.bodyMasked).toBe(true);
  });

  // The parser's own message quoted the bad number whole: `Invalid number '4111111111111111.'`.
  it("gives support the note of a malformed body with none of the card number the body masks", async () => {
    const body = `{"status":"Success","data":{"paymentDetailsData":{"number":${CARD}.}}}`;
    const id = await deliver(body);
    const page = await getDelivery(id);
    const { rows } = await listDeliveries({});
    const listed = rows.find((r) => r.id === id.toString());
    for (const note of [page?.note, listed?.note]) {
      expect(note).toMatchObject({ data: "invalid number at position 76" });
      expect(JSON.stringify(note)).not.toContain(CARD.slice(-8));
    }
    expect(page!.body).not.toContain(CARD.slice(-8));
    expect(page!.bodyMasked).toBe(true);
  });

  it("leaves a body without numbers as it was, with nothing to reveal", async () => {
    const op = snapshot({ status: "in_progress", typeOperation: "payOut" });
    const body = webhookBody(op);
    const page = await getDelivery(await deliver(body));
    expect(page).toMatchObject({ body, bodyMasked: false });
  });
});

describe("revealing a webhook body", () => {
  it("refuses support and audits nothing", async () => {
    const support = await signInAs("support");
    const id = await deliver(payInWebhook());
    expect(await revealWebhookBodyAction({ id: id.toString() })).toMatchObject({
      ok: false,
      code: "forbidden",
    });
    expect(await getDb().auditLog.count({ where: { actorUserId: support.id } })).toBe(0);
  });

  it("gives finance the whole body and writes exactly one audit entry with the delivery id", async () => {
    const finance = await signInAs("finance");
    const body = payInWebhook();
    const id = await deliver(body);
    expect(await revealWebhookBodyAction({ id: id.toString() })).toEqual({ ok: true, body });
    const entries = await getDb().auditLog.findMany({ where: { actorUserId: finance.id } });
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      action: "webhook.body.reveal",
      targetType: "webhookDelivery",
      targetId: id.toString(),
      actorEmail: finance.email,
      ip: "198.51.100.21",
    });
  });

  it.each([
    [{ id: "x" }, "invalid"],
    [{ id: "1", extra: true }, "invalid"],
    [{ id: "999999999" }, "not_found"],
  ])("answers %j with %s and audits nothing", async (input, code) => {
    const finance = await signInAs("finance");
    expect(await revealWebhookBodyAction(input)).toMatchObject({ ok: false, code });
    expect(await getDb().auditLog.count({ where: { actorUserId: finance.id } })).toBe(0);
  });
});

describe("trace lookup and support bundle", () => {
  it("mask numbers in recorded platform bodies whatever their casing or JSON type", async () => {
    const traceID = randomUUID();
    await getDb().apiCall.create({
      data: {
        method: "GET",
        path: "/operation/operation/platform/x",
        traceID,
        latencyMs: 5,
        requestBody: `{"Number":"${CARD}"}`,
        responseBody: `{"result":{"status":"success"},"data":{"paymentDetailsData":{"Number":${PHONE},"numberAdditional":["${ACCOUNT}"]}}}`,
      },
    });
    const lookup = await lookupTrace(traceID);
    expect(lookup.calls).toHaveLength(1);
    const shown = JSON.stringify(lookup);
    const bundle = buildSupportBundle(lookup, []);
    for (const digits of [CARD, PHONE, ACCOUNT]) {
      expect(shown).not.toContain(digits);
      expect(bundle).not.toContain(digits);
    }
    expect(shown).toContain("*******4567");
  });

  it("keep amounts and everything else exact in the masked text", () => {
    const text = '{"amount":62.50,"number":"4111111111111111","idTransactionMerchant":"1700000000000"}';
    expect(maskNumbersInText(text)).toBe(
      '{"amount":62.50,"number":"************1111","idTransactionMerchant":"1700000000000"}',
    );
  });
});
