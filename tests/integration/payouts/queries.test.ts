// What the pay-out pages read (lib/payouts/queries.ts), written out: the list (order, status filter,
// page size bounds, approvals counted, payment currency), the detail (every field, the platform's refusal,
// the waiting note of a held-back or lost request, decisions in order, what the viewer may do), the
// progress the page polls. A database of its own: the list and the currency read every row.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, test } from "vitest";
import { getDb } from "@/lib/db";
import type { PayoutRequestStatus } from "@/lib/payouts/state";
import {
  getPayoutDetail,
  getPayoutProgress,
  listPayouts,
  parseStatusFilter,
  readPayoutRecipientNumber,
} from "@/lib/payouts/queries";
import { isolateDatabase } from "../../support/database";
import { createStaff, insertOperations } from "../../support/mirror";
import { storedPayoutRequest } from "../../support/payouts";

let restore: () => Promise<void>;
const staff = {} as Record<
  "maker" | "approver" | "approver2" | "admin" | "support",
  { id: string; email: string; role: "finance" | "approver" | "admin" | "support" }
>;
let seq = 0;

async function request(
  status: PayoutRequestStatus,
  overrides: Partial<{
    amount: string;
    recipientNumber: string;
    lastMessage: string | null;
    lastCodeError: string | null;
    lastTraceID: string | null;
    operationId: string | null;
    createdAt: Date;
    requiredApprovals: number;
    makerId: string;
  }> = {},
) {
  seq++;
  return storedPayoutRequest(staff.maker.id, {
    status,
    recipientNumber: `220070001234${String(1000 + seq)}`,
    amount: `${100 + seq}.5`,
    clientID: "client-1",
    createdAt: new Date(Date.UTC(2026, 10, 20, 10, seq)),
    ...overrides,
  });
}

beforeAll(async () => {
  restore = await isolateDatabase();
  for (const [key, role] of [
    ["maker", "finance"],
    ["approver", "approver"],
    ["approver2", "approver"],
    ["admin", "admin"],
    ["support", "support"],
  ] as const) {
    const u = await createStaff(role);
    staff[key] = { id: u.id, email: u.email, role };
  }
});
afterAll(async () => {
  await restore();
});

describe("parseStatusFilter", () => {
  test.each([
    ["approved", "approved"],
    ["failed_to_submit", "failed_to_submit"],
    ["APPROVED", null],
    ["", null],
    [undefined, null],
    [["approved"], null],
  ])("%j -> %j", (value, expected) => {
    expect(parseStatusFilter(value)).toBe(expected);
  });
});

describe("the list", () => {
  it("newest first, the status filter, page size bounds, RUB until a balance was read", async () => {
    const older = await request("awaiting_approval", { createdAt: new Date("2026-01-01T00:00:00.000Z") });
    const newer = await request("rejected", { createdAt: new Date("2026-01-02T00:00:00.000Z") });
    const all = await listPayouts();
    expect(all.map((r) => r.id)).toEqual([newer.id, older.id]);
    expect(all[0]).toEqual({
      id: newer.id,
      idTransactionMerchant: newer.idTransactionMerchant,
      status: "rejected",
      createdAt: "2026-01-02T00:00:00.000Z",
      amount: newer.amount.toFixed(),
      currency: "RUB",
      paymentMethod: "toCard",
      bankName: "Сбербанк",
      recipientMasked: `************${newer.recipientNumber.slice(-4)}`,
      recipientName: "Ivan Petrov",
      makerEmail: staff.maker.email,
      approvals: 0,
      requiredApprovals: 1,
      operationStatus: null,
    });
    expect((await listPayouts({ status: "awaiting_approval" })).map((r) => r.id)).toEqual([older.id]);
    expect((await listPayouts({ status: null })).length).toBe(2);
    expect((await listPayouts({ take: 1 })).map((r) => r.id)).toEqual([newer.id]);
    expect((await listPayouts({ take: 0 })).map((r) => r.id)).toEqual([newer.id]);
    expect((await listPayouts({ take: -5 })).length).toBe(1);
  });

  it("at most 500 a page; the payment currency of the newest balance read; approvals and operation status", async () => {
    const db = getDb();
    const base = await db.payoutRequest.findFirstOrThrow();
    await db.payoutRequest.createMany({
      data: Array.from({ length: 501 }, (_, i) => ({
        idTransactionMerchant: `po-${randomUUID()}`,
        status: "cancelled" as const,
        paymentMethod: "toCard",
        bankName: "Сбербанк",
        recipientNumber: base.recipientNumber,
        recipientName: "Bulk",
        amount: "1",
        clientID: "client-1",
        clientIP: "85.143.12.7",
        clientDateCreated: new Date("2023-04-17T00:00:00Z"),
        makerId: staff.maker.id,
        createdAt: new Date(Date.UTC(2025, 0, 1, 0, 0, i)),
      })),
    });
    expect(await listPayouts({ take: 10_000 })).toHaveLength(500);
    expect(await listPayouts()).toHaveLength(100);

    await db.balanceSnapshot.createMany({
      data: [
        {
          takenAt: new Date("2026-11-20T09:00:00.000Z"),
          amountInCurrencyBalance: "1",
          currencyBalance: "USDT",
          amountInCurrencyPayment: "95",
          currencyPayment: "KZT",
          exchangeRate: "95",
        },
        {
          takenAt: new Date("2026-11-20T10:00:00.000Z"),
          amountInCurrencyBalance: "1",
          currencyBalance: "USDT",
          amountInCurrencyPayment: "95",
          currencyPayment: "UZS",
          exchangeRate: "95",
        },
      ],
    });
    const [opId] = await insertOperations([
      { dateAdded: new Date("2026-11-20T10:00:00.000Z"), typeOperation: "payOut", status: "success" },
    ]);
    const twice = await request("approved", {
      createdAt: new Date("2027-01-01T00:00:00.000Z"),
      requiredApprovals: 2,
      operationId: opId,
    });
    await db.payoutApproval.createMany({
      data: [
        { payoutRequestId: twice.id, approverId: staff.approver.id, decision: "approve", comment: "ok" },
        { payoutRequestId: twice.id, approverId: staff.approver2.id, decision: "approve", comment: "ok" },
        { payoutRequestId: twice.id, approverId: staff.admin.id, decision: "reject", comment: "no" },
      ],
    });
    const [first] = await listPayouts({ take: 1 });
    expect(first).toMatchObject({
      id: twice.id,
      currency: "UZS",
      approvals: 2,
      requiredApprovals: 2,
      operationStatus: "success",
    });
  });
});

describe("the detail", () => {
  it("every field of a request the platform refused, with the refusal explained", async () => {
    const row = await request("failed_to_submit", {
      lastCodeError: "noSuitableTariffForRequest",
      lastMessage: "no tariff",
      lastTraceID: "trace-9",
    });
    const d = await getPayoutDetail(row.id, staff.maker);
    expect(d).toEqual({
      id: row.id,
      idTransactionMerchant: row.idTransactionMerchant,
      status: "failed_to_submit",
      createdAt: row.createdAt.toISOString(),
      amount: row.amount.toFixed(),
      currency: "UZS",
      paymentMethod: "toCard",
      bankName: "Сбербанк",
      recipientMasked: `************${row.recipientNumber.slice(-4)}`,
      recipientName: "Ivan Petrov",
      makerEmail: staff.maker.email,
      makerId: staff.maker.id,
      approvals: 0,
      requiredApprovals: 1,
      operationStatus: null,
      clientID: "client-1",
      clientIP: "85.143.12.7",
      clientDateCreated: "2023-04-17T00:00:00.000Z",
      webhookUrl: null,
      overrideReason: null,
      submittedAt: null,
      updatedAt: row.updatedAt.toISOString(),
      operationId: null,
      lastTraceID: "trace-9",
      error: {
        code: "noSuitableTariffForRequest",
        codeError: "noSuitableTariffForRequest",
        traceID: "trace-9",
        message:
          "The payment method toCard is not in the merchant's tariff. Choose another method, or ask the account manager to add it.",
        platformMessage: "no tariff",
      },
      note: null,
      sending: false,
      decisions: [],
      can: { approve: false, reject: false, cancel: false, submit: false },
      approveBlockedReason: null,
    });
  });

  // internalError is a refused token (AuthError) or the platform's own failure (Warning): the request
  // does not keep which, so the words claim neither
  it("internalError on the request, read back without its kind, is worded so as to claim neither", async () => {
    const row = await request("failed_to_submit", {
      lastCodeError: "internalError",
      lastMessage: "bad token",
    });
    expect((await getPayoutDetail(row.id, staff.maker))?.error).toMatchObject({
      code: "internalError",
      message:
        "The platform answered internalError, a code it uses both for refused credentials (token) and for a failure on its side, so it is not known whether the pay-out was created. Check Operations before creating it again, and give the traceID to the platform's support.",
    });
  });

  it("internalError refused as a token (AuthError, kept on the creation intent) is worded as one", async () => {
    const row = await request("failed_to_submit", {
      lastCodeError: "internalError",
      lastMessage: "bad token",
    });
    await getDb().creationIntent.create({
      data: {
        idTransactionMerchant: row.idTransactionMerchant,
        kind: "payOut",
        request: {},
        state: "rejected",
        lastCodeError: "internalError",
        lastErrorKind: "auth",
      },
    });
    expect((await getPayoutDetail(row.id, staff.maker))?.error).toMatchObject({
      code: "auth",
      message: "The platform refused Paydesk's credentials (token). Tell an admin; nothing was created.",
    });
  });

  it("decisions in order with who made them; the approver who decided is told why not again", async () => {
    const row = await request("awaiting_approval", { requiredApprovals: 2 });
    const db = getDb();
    await db.payoutApproval.create({
      data: {
        payoutRequestId: row.id,
        approverId: staff.approver.id,
        decision: "approve",
        comment: "first",
        createdAt: new Date("2026-11-20T11:00:00.000Z"),
      },
    });
    const d = await getPayoutDetail(row.id, staff.approver);
    expect(d).toMatchObject({
      approvals: 1,
      decisions: [
        {
          approverEmail: staff.approver.email,
          approverName: "Test approver",
          decision: "approve",
          comment: "first",
          at: "2026-11-20T11:00:00.000Z",
        },
      ],
      can: { approve: false, cancel: false, submit: false },
      approveBlockedReason: "You have already decided on this pay-out.",
      sending: false,
      note: null,
    });
    expect(await getPayoutDetail(row.id, staff.approver2)).toMatchObject({
      can: { approve: true, cancel: false, submit: false },
      approveBlockedReason: null,
    });
    // no permission to decide: no reason shown
    expect((await getPayoutDetail(row.id, staff.support))?.approveBlockedReason).toBeNull();
  });

  it("a request no longer awaiting approval gives no reason to the approver", async () => {
    const row = await request("rejected");
    expect((await getPayoutDetail(row.id, staff.approver))?.approveBlockedReason).toBeNull();
  });

  it("approved and handed to the worker: sending, nothing for anyone to do but cancel", async () => {
    const row = await request("approved");
    expect(await getPayoutDetail(row.id, staff.maker)).toMatchObject({
      sending: true,
      note: null,
      can: { approve: false, cancel: true, submit: false },
    });
  });

  it("held back by the duplicate guard: the guard's words now, Send offered to who may create", async () => {
    const db = getDb();
    const earlier = await request("submitting");
    const held = await request("approved", {
      recipientNumber: earlier.recipientNumber,
      amount: earlier.amount.toFixed(),
      lastMessage: "stored in another language",
    });
    expect(await getPayoutDetail(held.id, staff.maker)).toMatchObject({
      sending: false,
      note: "Blocked: a pay-out request to this recipient for this amount is already submitting. A second one could pay twice. An admin can override this with a reason.",
      can: { approve: false, cancel: true, submit: true },
    });
    expect((await getPayoutDetail(held.id, staff.approver))?.can.submit).toBe(false);
    await db.payoutRequest.update({ where: { id: earlier.id }, data: { status: "submitted" } });
    expect((await getPayoutDetail(held.id, staff.maker))?.note).toBe(
      "This pay-out was held back by the duplicate guard; the earlier pay-out it waited for has settled since. Send it once you have checked it is still needed.",
    );
  });

  it("submitting with a note: the answer was lost", async () => {
    const row = await request("submitting", { lastMessage: "timeout" });
    expect(await getPayoutDetail(row.id, staff.maker)).toMatchObject({
      sending: true,
      note: "The platform's answer was lost. The same request is checked again automatically; do not create the pay-out again.",
    });
  });

  it("submitting, its creation given up on: nothing checks it by itself any more, a person asks", async () => {
    const row = await request("submitting", { lastMessage: "timeout" });
    await getDb().creationIntent.create({
      data: {
        idTransactionMerchant: row.idTransactionMerchant,
        kind: "payOut",
        request: {},
        gaveUpAt: new Date(),
        attempts: 30,
      },
    });
    expect((await getPayoutDetail(row.id, staff.maker))?.note).toBe(
      "Paydesk has stopped asking: after many attempts over a day the platform never said whether this " +
        "pay-out was created. Look it up from Reconciliation (creations the platform never answered), or " +
        `ask the platform's support about merchant id ${row.idTransactionMerchant}, before doing anything; ` +
        "do not create the pay-out again. Once the platform's list shows it, it is confirmed by itself.",
    );
  });

  it("a note on a request in any other status says nothing", async () => {
    const row = await request("cancelled", { lastMessage: "old" });
    expect((await getPayoutDetail(row.id, staff.maker))?.note).toBeNull();
  });

  it("unknown: null", async () => {
    expect(await getPayoutDetail(randomUUID(), staff.maker)).toBeNull();
  });
});

describe("the number and the progress", () => {
  it("the unmasked number for the audited reveal; null for an unknown request", async () => {
    const row = await request("approved", { recipientNumber: "2200700012345675" });
    expect(await readPayoutRecipientNumber(row.id)).toBe("2200700012345675");
    expect(await readPayoutRecipientNumber(randomUUID())).toBeNull();
  });

  it("the progress the page polls, and nothing else", async () => {
    const [opId] = await insertOperations([
      { dateAdded: new Date("2026-11-20T10:00:00.000Z"), typeOperation: "payOut", status: "in_progress" },
    ]);
    const row = await request("submitted", { operationId: opId });
    expect(await getPayoutProgress(row.id)).toEqual({
      id: row.id,
      status: "submitted",
      sending: false,
      operationStatus: "in_progress",
      updatedAt: row.updatedAt.toISOString(),
    });
    const held = await request("approved", { lastMessage: "held" });
    expect(await getPayoutProgress(held.id)).toMatchObject({ sending: false, operationStatus: null });
    const sending = await request("approved");
    expect((await getPayoutProgress(sending.id))?.sending).toBe(true);
    expect(await getPayoutProgress(randomUUID())).toBeNull();
  });
});
